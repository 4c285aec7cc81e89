import { z } from "zod";
import type { Db, Prisma } from "@/server/persistence/db";
import { containsText } from "@/server/persistence/text-search";
import { bundledCassettePath } from "../examples/bundled-cassette";
import { pageWindow, toPage, type Page, type PageRequest } from "../list-page";

const workflowSummarySelect = {
  id: true,
  name: true,
  description: true,
  updatedAt: true,
  archivedAt: true,
  // Every version with its run count: the newest gives the latest number, the sum the total.
  versions: {
    select: { version: true, _count: { select: { runs: true } } },
    orderBy: { version: "desc" },
  },
} satisfies Prisma.WorkflowSelect;

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  latestVersion: number | null;
  runCount: number;
  updatedAt: Date;
  /** When the workflow was archived (hidden from the default list, not runnable); null while it is active. */
  archivedAt: Date | null;
  /** The latest version's default specification, which a new run starts from; null when it has none. */
  specification: string | null;
  /** Whether a replay cassette ships with the workflow (a bundled example), so it can run offline. */
  hasReplayCassette: boolean;
}

// Only the one optional field is read: the rest of a definition is validated where it is saved and compiled.
const definitionSpecificationSchema = z.object({ specification: z.string() });

function specificationOf(definition: unknown): string | null {
  const parsed = definitionSpecificationSchema.safeParse(definition);
  return parsed.success && parsed.data.specification.trim() !== "" ? parsed.data.specification : null;
}

/** The definitions of the given versions, keyed by workflow id (one query, not one per workflow). */
async function latestDefinitions(db: Db, latest: { workflowId: string; version: number }[]): Promise<Map<string, unknown>> {
  if (latest.length === 0) return new Map();
  const rows = await db.workflowVersion.findMany({ where: { OR: latest }, select: { workflowId: true, definition: true } });
  return new Map(rows.map((row) => [row.workflowId, row.definition]));
}

type WorkflowSummaryRow = Prisma.WorkflowGetPayload<{ select: typeof workflowSummarySelect }>;

async function summarize(db: Db, rows: WorkflowSummaryRow[]): Promise<WorkflowSummary[]> {
  const definitions = await latestDefinitions(
    db,
    rows.flatMap((row) => (row.versions[0] ? [{ workflowId: row.id, version: row.versions[0].version }] : [])),
  );
  return rows.map(({ versions, ...workflow }) => ({
    ...workflow,
    latestVersion: versions[0]?.version ?? null,
    runCount: versions.reduce((total, version) => total + version._count.runs, 0),
    specification: specificationOf(definitions.get(workflow.id)),
    hasReplayCassette: bundledCassettePath(workflow.name) !== null,
  }));
}

const newestFirst: Prisma.WorkflowOrderByWithRelationInput[] = [{ updatedAt: "desc" }, { name: "asc" }];

/**
 * The workflows, most recently changed first, with their latest version and how often they ran;
 * archived ones only when asked for.
 */
export async function listWorkflows(db: Db, options: { includeArchived?: boolean } = {}): Promise<WorkflowSummary[]> {
  const where: Prisma.WorkflowWhereInput = options.includeArchived ? {} : { archivedAt: null };
  return summarize(db, await db.workflow.findMany({ where, select: workflowSummarySelect, orderBy: newestFirst }));
}

export interface WorkflowListQuery extends PageRequest {
  /** Matched case-insensitively against the name and the description. */
  readonly search?: string;
  /** Archived workflows are left out unless asked for. */
  readonly includeArchived?: boolean;
}

/** The overview's workflow list: searched and paged, with the count of all that match. */
export async function listWorkflowPage(db: Db, query: WorkflowListQuery): Promise<Page<WorkflowSummary>> {
  const search = query.search?.trim();
  const where: Prisma.WorkflowWhereInput = {
    ...(search ? { OR: [{ name: containsText(db, search) }, { description: containsText(db, search) }] } : {}),
    ...(query.includeArchived ? {} : { archivedAt: null }),
  };
  const [rows, total] = await Promise.all([
    db.workflow.findMany({ select: workflowSummarySelect, where, orderBy: newestFirst, ...pageWindow(query) }),
    db.workflow.count({ where }),
  ]);
  return toPage(await summarize(db, rows), total, query);
}

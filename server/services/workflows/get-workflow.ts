import type { Db, Prisma } from "@/server/persistence/db";
import { validateWorkflowDocument, type WorkflowDefinition } from "@/server/workflows/definition";
import { formatProblem } from "@/server/workflows/document";
import { notFound } from "../errors";

const workflowDetailSelect = {
  id: true,
  name: true,
  description: true,
  updatedAt: true,
  versions: {
    select: { version: true, createdAt: true, definition: true, _count: { select: { runs: true } } },
    orderBy: { version: "desc" },
  },
} satisfies Prisma.WorkflowSelect;

export interface WorkflowVersionSummary {
  version: number;
  createdAt: Date;
  runCount: number;
}

export interface WorkflowDetail {
  id: string;
  name: string;
  description: string;
  updatedAt: Date;
  /** The newest version's definition; null when there is no version or it no longer validates. */
  definition: WorkflowDefinition | null;
  /** Why the newest stored definition does not validate (`path: message` lines); empty otherwise. */
  problems: string[];
  /** Every version, newest first. */
  versions: WorkflowVersionSummary[];
}

/**
 * A workflow by name or id: its latest definition, read back through the validator (the
 * stored JSON is parsed at this boundary, not trusted), and its versions with their run counts.
 * A version stored before definitions were validated comes back with `definition: null` and
 * the problems, rather than failing the whole read.
 * @throws ServiceError NOT_FOUND naming the workflow.
 */
export async function getWorkflow(db: Db, by: { name: string } | { id: string }): Promise<WorkflowDetail> {
  const where = "name" in by ? { name: by.name } : { id: by.id };
  const row = await db.workflow.findUnique({ where, select: workflowDetailSelect });
  if (!row) throw notFound("Workflow", "name" in by ? by.name : by.id);
  const { versions, ...workflow } = row;
  const latest = versions[0];
  const read = latest ? validateWorkflowDocument(JSON.stringify(latest.definition), "definition.json") : undefined;
  return {
    ...workflow,
    definition: read?.ok ? read.definition : null,
    problems: read && !read.ok ? read.problems.map(({ path, message }) => formatProblem({ path, message })) : [],
    versions: versions.map((version) => ({ version: version.version, createdAt: version.createdAt, runCount: version._count.runs })),
  };
}

import type { Db, Prisma } from "@/server/persistence/db";
import { containsText } from "@/server/persistence/text-search";
import { pageWindow, toPage, type Page, type PageRequest } from "../list-page";

export interface AuditQuery extends PageRequest {
  /** Matched case-insensitively against who acted, the action and the target. */
  readonly search?: string;
  /** A kind ("token") or one action ("token.created"). */
  readonly action?: string;
  /** Who acted: their email, exactly (case-insensitively). */
  readonly actor?: string;
  /** At or after / before. */
  readonly from?: Date;
  readonly to?: Date;
}

export interface AuditEventRow {
  id: string;
  at: Date;
  actorId: string | null;
  actorEmail: string;
  action: string;
  target: string;
  detail: Record<string, unknown>;
  ip: string | null;
  /** What the target's id names, looked up now, so the log reads as a sentence: the run's workflow. */
  context: { workflow?: string };
}

function auditWhere(db: Db, query: AuditQuery): Prisma.AuditEventWhereInput {
  const at: Prisma.DateTimeFilter = { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) };
  const search = query.search?.trim();
  const action = query.action?.trim();
  return {
    // "token" means every token.* action; "token.created" that one only.
    ...(action ? (action.includes(".") ? { action } : { action: { startsWith: `${action}.` } }) : {}),
    ...(query.actor?.trim() ? { actorEmail: query.actor.trim().toLowerCase() } : {}),
    ...(Object.keys(at).length > 0 ? { at } : {}),
    ...(search ? { OR: [{ actorEmail: containsText(db, search) }, { action: containsText(db, search) }, { target: containsText(db, search) }] } : {}),
  };
}

const runIdOf = (detail: Record<string, unknown>) => (typeof detail.runId === "string" ? detail.runId : null);

/** The workflow each run ran, for the runs the page's events name (one query). */
async function workflowsOfRuns(db: Db, runIds: string[]): Promise<Map<string, string>> {
  if (runIds.length === 0) return new Map();
  const runs = await db.run.findMany({ where: { id: { in: runIds } }, select: { id: true, workflowVersion: { select: { workflow: { select: { name: true } } } } } });
  return new Map(runs.flatMap((run) => (run.workflowVersion ? [[run.id, run.workflowVersion.workflow.name] as const] : [])));
}

/** The audit log, newest first, searched, filtered and paged. */
export async function listAuditEvents(db: Db, query: AuditQuery): Promise<Page<AuditEventRow>> {
  const where = auditWhere(db, query);
  const [events, total] = await Promise.all([
    db.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], ...pageWindow(query) }),
    db.auditEvent.count({ where }),
  ]);
  const rows = events.map((event) => ({ ...event, detail: (event.detail ?? {}) as Record<string, unknown> }));
  const workflows = await workflowsOfRuns(db, [...new Set(rows.flatMap((row) => runIdOf(row.detail) ?? []))]);
  const items = rows.map((row) => {
    const workflow = workflows.get(runIdOf(row.detail) ?? "");
    return { ...row, context: workflow ? { workflow } : {} };
  });
  return toPage(items, total, query);
}

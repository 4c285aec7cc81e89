import type { Db } from "@/server/persistence/db";
import type { RunStatus } from "@/server/durable/lifecycle";

/** A run starts at most one sub-run per waiting call; the page lists the newest. */
export const CHILD_LIMIT = 100;

/** The run that started this one through a workflow tool, and the call that waits for it. */
export interface ParentLink {
  readonly runId: string;
  /** Null when the parent row is gone. */
  readonly status: RunStatus | null;
  readonly workflow: string | null;
  /** The parent's ToolWait id. */
  readonly callId: string | null;
  /** The waiting call in the parent; null when its row is gone. */
  readonly call: { readonly tool: string; readonly stepName: string; readonly attempt: number; readonly status: string } | null;
}

export interface ChildLink {
  readonly runId: string;
  readonly status: RunStatus;
  readonly workflow: string | null;
  /** The call of this run that waits for the child. */
  readonly callId: string | null;
  readonly tool: string | null;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}

export interface RunFamily {
  readonly parent: ParentLink | null;
  /** The newest CHILD_LIMIT sub-runs at most, oldest first. */
  readonly children: readonly ChildLink[];
  readonly childCount: number;
}

const workflowSelect = { workflowVersion: { select: { workflow: { select: { name: true } } } } } as const;

/** The run's parent (when it is a sub-run) and its own sub-runs, both ways of the join edges. */
export async function readRunFamily(db: Db, run: { id: string; parentRunId: string | null; parentCallId: string | null }, limit = CHILD_LIMIT): Promise<RunFamily> {
  const [parentRow, parentCall, childRows, childCount] = await Promise.all([
    run.parentRunId ? db.run.findUnique({ where: { id: run.parentRunId }, select: { status: true, ...workflowSelect } }) : null,
    run.parentRunId && run.parentCallId
      ? db.toolWait.findFirst({ where: { id: run.parentCallId, runId: run.parentRunId }, select: { tool: true, stepName: true, attempt: true, status: true } })
      : null,
    db.run.findMany({
      where: { parentRunId: run.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { id: true, status: true, parentCallId: true, createdAt: true, finishedAt: true, ...workflowSelect },
    }),
    db.run.count({ where: { parentRunId: run.id } }),
  ]);
  const callIds = childRows.flatMap((child) => (child.parentCallId ? [child.parentCallId] : []));
  const calls = callIds.length > 0 ? await db.toolWait.findMany({ where: { runId: run.id, id: { in: callIds } }, select: { id: true, tool: true } }) : [];
  const toolOf = new Map(calls.map((call) => [call.id, call.tool]));
  return {
    parent: run.parentRunId
      ? { runId: run.parentRunId, status: parentRow?.status ?? null, workflow: parentRow?.workflowVersion?.workflow.name ?? null, callId: run.parentCallId, call: parentCall ?? null }
      : null,
    children: childRows.reverse().map((child) => ({
      runId: child.id,
      status: child.status,
      workflow: child.workflowVersion?.workflow.name ?? null,
      callId: child.parentCallId,
      tool: child.parentCallId ? (toolOf.get(child.parentCallId) ?? null) : null,
      createdAt: child.createdAt,
      finishedAt: child.finishedAt,
    })),
    childCount,
  };
}

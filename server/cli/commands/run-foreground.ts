import type { Env } from "../../env";
import { DUE_INBOX_STATUSES } from "../../durable/lifecycle";
import type { Db } from "../../persistence/db";
import { startWorker } from "../../worker/worker-from-env";

/** Sub-runs nest at most this deep (the durable store refuses deeper ones); the walk below stops there too. */
const MAX_DEPTH = 8;

/** Runs this process's own worker for one turn of one run. */
function oneTurn(env: Env, runId: string): Promise<void> {
  return new Promise((resolve) => {
    const started = startWorker(env, {
      onlyRunId: runId,
      concurrency: 1,
      onTurn: (turn, outcome) => {
        if (turn.runId !== runId || outcome === "deferred" || outcome === "lost") return;
        void started.stop(0).then(resolve);
      },
    });
  });
}

/** Whether the run has a message a turn would take now (without one, a worker would wait forever). */
async function hasDueMessage(db: Db, runId: string): Promise<boolean> {
  return (await db.inboxMessage.count({ where: { runId, status: { in: [...DUE_INBOX_STATUSES] } } })) > 0;
}

/**
 * Executes a run in this process until it ends, escalates, or waits for something no worker
 * here can give (a person's answer, an outside system's report). A run suspended on workflow
 * tools has its sub-runs executed the same way first, so `dualstate run` of a workflow that calls
 * another one finishes in the foreground; the sub-run's end reports to the parent, whose next
 * turn then resumes it.
 */
export async function executeInForeground(env: Env, db: Db, runId: string, depth = 0): Promise<void> {
  while (await hasDueMessage(db, runId)) {
    await oneTurn(env, runId);
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    if (run?.status !== "suspended" || depth >= MAX_DEPTH) return;
    const children = await db.toolWait.findMany({ where: { runId, status: "waiting", kind: "workflow", childRunId: { not: null } }, select: { childRunId: true }, orderBy: { createdAt: "asc" } });
    for (const child of children) if (child.childRunId) await executeInForeground(env, db, child.childRunId, depth + 1);
  }
}

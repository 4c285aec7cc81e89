import { timeOrderedId } from "@/server/persistence/run-store/sql-run-store";
import { initialWorkflowState } from "@/server/engine";
import type { Db, Prisma } from "@/server/persistence/db";
import { ringLocalDoorbell } from "@/server/worker/doorbell";

export interface RunToEnqueue {
  readonly workflowVersionId: string;
  readonly specification: string;
  readonly contextValues: Readonly<Record<string, boolean | number | string>>;
  readonly generatorOverride?: unknown;
}

/**
 * Creates a queued run and its start message in one transaction (003: the inbox is the source of
 * truth), then rings the doorbell: NOTIFY on PostgreSQL (sent on commit), the in-process signal
 * for the embedded worker. A worker claims the message and executes the run.
 */
export async function enqueueRun(db: Db, run: RunToEnqueue): Promise<{ id: string }> {
  // Time-ordered like the run store's own: a run's rows sit together in every (runId, …) index.
  const id = timeOrderedId();
  const now = new Date();
  await db.$transaction(async (tx) => {
    await tx.run.create({
      data: {
        id,
        workflowVersionId: run.workflowVersionId,
        specification: run.specification,
        status: "queued",
        workflowState: initialWorkflowState as unknown as Prisma.InputJsonObject,
        contextValues: run.contextValues as Prisma.InputJsonObject,
        generatorOverride: run.generatorOverride === undefined ? undefined : (run.generatorOverride as Prisma.InputJsonObject),
      },
      select: { id: true },
    });
    await tx.inboxMessage.create({ data: { id: timeOrderedId(), runId: id, kind: "start", payload: {}, nextRetryAt: now, createdAt: now }, select: { id: true } });
    if (isPostgres(tx)) await tx.$executeRawUnsafe(`SELECT pg_notify('dualstate_inbox', $1)`, id);
  });
  ringLocalDoorbell();
  return { id };
}

function isPostgres(tx: unknown): boolean {
  // The PostgreSQL client is typed as the SQLite one (server/persistence/db.ts); it knows which it is.
  return (tx as { _activeProvider?: string })._activeProvider === "postgresql";
}

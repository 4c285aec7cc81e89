import { timeOrderedId } from "@/server/persistence/run-store/sql-run-store";
import { initialWorkflowState } from "@/server/engine";
import type { Db, Prisma } from "@/server/persistence/db";
import { ringLocalDoorbell } from "@/server/worker/doorbell";
import type { ModelSettingsEnv } from "@/server/models/load-from-prisma";
import { refuseUnconfiguredModels } from "./run-model-check";
import { conflict } from "../errors";
import { archivedWorkflowMessage } from "../workflows/archive-workflow";

export interface RunToEnqueue {
  readonly workflowVersionId: string;
  readonly specification: string;
  readonly contextValues: Readonly<Record<string, boolean | number | string>>;
  readonly generatorOverride?: unknown;
  /** A fork: the run and attempt it starts from, and the ledger it starts with (see fork/fork-run.ts). */
  readonly fork?: {
    readonly fromRunId: string;
    readonly attemptKey: string;
    readonly ledger: readonly SeededLedgerEntry[];
  };
}

/** A ledger entry a run starts with, before any turn (epoch 0). */
export interface SeededLedgerEntry {
  readonly actor: string;
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly callKey: string | null;
}

/**
 * Creates a queued run (with a fork's seeded ledger) and its start message in one transaction (003: the inbox is the source of
 * truth), then rings the doorbell: NOTIFY on PostgreSQL (sent on commit), the in-process signal
 * for the embedded worker. A worker claims the message and executes the run.
 * @throws ServiceError CONFLICT when the workflow is archived.
 */
export async function enqueueRun(db: Db, run: RunToEnqueue, modelSettings?: ModelSettingsEnv): Promise<{ id: string }> {
  // Every start (a new run, a re-run, a fork, the CLI) passes here, so none starts without its models.
  await refuseUnconfiguredModels(db, run.workflowVersionId, run.generatorOverride, modelSettings);
  // Time-ordered like the run store's own: a run's rows sit together in every (runId, …) index.
  const id = timeOrderedId();
  const now = new Date();
  await db.$transaction(async (tx) => {
    // Every way a run starts (new, again, fork, the CLI) passes here: an archived workflow does not run.
    const pinned = await tx.workflowVersion.findUnique({ where: { id: run.workflowVersionId }, select: { workflow: { select: { name: true, archivedAt: true } } } });
    if (pinned?.workflow.archivedAt) throw conflict(archivedWorkflowMessage(pinned.workflow.name));
    await tx.run.create({
      data: {
        id,
        workflowVersionId: run.workflowVersionId,
        specification: run.specification,
        status: "queued",
        workflowState: initialWorkflowState as unknown as Prisma.InputJsonObject,
        contextValues: run.contextValues as Prisma.InputJsonObject,
        generatorOverride: run.generatorOverride === undefined ? undefined : (run.generatorOverride as Prisma.InputJsonObject),
        forkedFromRunId: run.fork?.fromRunId,
        forkedFromAttempt: run.fork?.attemptKey,
      },
      select: { id: true },
    });
    if (run.fork && run.fork.ledger.length > 0) {
      await tx.ledgerEntry.createMany({
        data: run.fork.ledger.map((entry, index) => ({ id: timeOrderedId(), runId: id, seq: index + 1, epoch: 0, actor: entry.actor, type: entry.type, payload: entry.payload as Prisma.InputJsonObject, callKey: entry.callKey, createdAt: now })),
      });
    }
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

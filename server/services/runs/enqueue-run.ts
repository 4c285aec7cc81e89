import { isWorkflowArchived, type SeededLedgerEntry } from "@/server/durable";
import type { Db } from "@/server/persistence/db";
import type { RunBudget } from "@/server/usage/budget";
import type { ModelSettingsEnv } from "@/server/models/load-from-prisma";
import { refuseUnconfiguredModels } from "./run-model-check";
import { refuseMissingSubWorkflows } from "./run-tool-check";
import { durableStoreFor } from "../durable-store-for";
import { conflict } from "../errors";
import { archivedWorkflowMessage } from "../workflows/archive-workflow";

export type { SeededLedgerEntry };

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
  /** The run's own budget; absent: the workflow's `budget:` (server/usage/budget.ts). */
  readonly budget?: RunBudget;
  /** Who starts it: the signed-in person or API token holder's email, or "cli" (Run.startedBy; a quorum may refuse them approving it). */
  readonly startedBy: string;
}

/**
 * Creates a queued run (with a fork's seeded ledger) and its start message in one transaction of
 * the durable store (003: the inbox is the source of truth), which rings the doorbell: NOTIFY on
 * PostgreSQL (sent on commit), the in-process signal for the embedded worker. A worker claims the
 * message and executes the run.
 * @throws ServiceError CONFLICT when the workflow is archived; NOT_CONFIGURED when a model it needs
 *   is not configured, or a workflow tool of an agent step names a missing or archived workflow.
 */
export async function enqueueRun(db: Db, run: RunToEnqueue, modelSettings?: ModelSettingsEnv): Promise<{ id: string }> {
  // Every start (a new run, a re-run, a fork, the CLI) passes here, so none starts without its models.
  await refuseUnconfiguredModels(db, run.workflowVersionId, run.generatorOverride, modelSettings);
  // Nor one whose agent may start a sub-run of a workflow that is missing or archived.
  await refuseMissingSubWorkflows(db, run.workflowVersionId, run.generatorOverride);
  try {
    const { runId } = await durableStoreFor(db).enqueueRun(run);
    return { id: runId };
  } catch (error) {
    // Every way a run starts (new, again, fork, the CLI) passes here: an archived workflow does not run.
    if (isWorkflowArchived(error)) throw conflict(archivedWorkflowMessage(error.workflowName));
    throw error;
  }
}

import type { ArtifactDag } from "../ports/artifact-dag";
import type { RunObserver } from "../ports/run-observer";
import type { CallLedger } from "../ports/call-ledger";
import type { EscalationRecord, LedgerEntryRecord, RunRecord } from "./run-record";

export interface NewRun {
  readonly specification: string;
  readonly workflowVersionId?: string | null;
}

/**
 * Where runs live. `observer(runId)` is handed to executeWorkflow: each engine event appends to
 * the run's ledger and updates the run in one atomic write, so the stored run never disagrees
 * with its ledger. The ledger is append-only: nothing here updates or deletes an entry.
 */
export interface RunRepository {
  create(run: NewRun): Promise<RunRecord>;
  /** Throws RunNotFoundError for an unknown id. */
  get(runId: string): Promise<RunRecord>;
  dag(runId: string): ArtifactDag;
  observer(runId: string): RunObserver;
  /** The run's ledger as the record of every generator call (replay after a crash). */
  calls(runId: string): CallLedger;
  ledger(runId: string): Promise<LedgerEntryRecord[]>;
  escalations(runId: string): Promise<EscalationRecord[]>;
}

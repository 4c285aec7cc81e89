import type { StoredArtifact } from "../engine";
import type { SqlClient } from "../persistence/sql/sql-client";
import { LiveCallWriter } from "./live-call-writer";
import { claimTurn } from "./store/claim-turn";
import { commitOnPostgres } from "./store/commit-postgres";
import { commitInTransaction, needsTransaction } from "./store/commit-in-transaction";
import { deferTurn } from "./store/defer-turn";
import { enqueueRun, type NewDurableRun } from "./store/enqueue-run";
import { getArtifact, loadTurn } from "./store/load-turn";
import { ensurePlannerStatistics } from "./store/planner-statistics";
import { requestCancel, runsWithPendingCancel, type CancelOutcome, type CancelRequest } from "./store/request-cancel";
import { isEscalationOverdue, resolveEscalation, type EscalationResolution, type ResolutionOutcome } from "./store/resolve-escalation";
import { renewLease } from "./store/renew-lease";
import { readModelPrice } from "./store/read-model-price";
import type { ModelPrice } from "../usage/call-cost";
import { reportToolResult, timeOutOverdueWaits, type ToolReport } from "./store/report-tool-result";
import type { ReportOutcome } from "./store/tool-waits";
import { closeMessagesOfEndedRuns, overdueEscalations, reclaimExpiredLeases, type OverdueEscalation, type ReclaimedRun } from "./store/watchdog-sweeps";
import { handOffAtDeadline, handOffUnclaimedToBackup, type DeadlineHandOff, type HandedOff } from "./store/hand-off-escalation";
import type { ClaimedTurn, TurnBatch, TurnSnapshot } from "./types";

/**
 * The durable run protocol (003) over SQL, and the only writer of a run's rows: runs and their
 * inbox, claims that open a turn with a new epoch, commits guarded by compare-and-swap on (epoch,
 * active turn, lease), leases, deferral with backoff, the watchdog's reclaims and timeouts,
 * cancels, and escalation decisions that resume runs. Every operation lives in its own file under
 * store/ and is one transaction (the PostgreSQL claim and commit are one statement each). Every
 * expiry and deadline is computed from the database's clock in the statement that uses it.
 */
export class DurableStore {
  /** The live preview of a turn's streaming model call. */
  readonly liveCalls: LiveCallWriter;

  /**
   * Rung after a message is committed: the doorbell (003: a wake-up only, the inbox is the truth).
   * On PostgreSQL the NOTIFY goes out inside the transaction, so it is delivered on commit.
   */
  onMessage?: () => void;

  constructor(readonly sql: SqlClient) {
    this.liveCalls = new LiveCallWriter(sql);
  }

  /** Creates a queued run with its start message. @throws WorkflowArchivedError */
  async enqueueRun(run: NewDurableRun): Promise<{ runId: string }> {
    const enqueued = await enqueueRun(this.sql, run);
    this.onMessage?.();
    return enqueued;
  }

  claim(workerId: string, leaseMs: number, onlyRunId?: string): Promise<ClaimedTurn | null> {
    return claimTurn(this.sql, workerId, leaseMs, onlyRunId);
  }

  loadTurn(runId: string): Promise<TurnSnapshot> {
    return loadTurn(this.sql, runId);
  }

  getArtifact(runId: string, artifactId: string): Promise<StoredArtifact | undefined> {
    return getArtifact(this.sql, runId, artifactId);
  }

  /** Writes one batch of a turn, only while it holds a valid lease. @throws LeaseLostError */
  commit(turn: ClaimedTurn, batch: TurnBatch): Promise<void> {
    return this.sql.dialect.provider === "postgres" && !needsTransaction(batch) ? commitOnPostgres(this.sql, turn, batch) : commitInTransaction(this.sql, turn, batch);
  }

  /** The price of a model call at the time of the call (the first of `names` the table lists). */
  modelPrice(names: readonly string[]): Promise<ModelPrice | null> {
    return readModelPrice(this.sql, names);
  }

  renewLease(turn: ClaimedTurn, leaseMs: number): Promise<boolean> {
    return renewLease(this.sql, turn, leaseMs);
  }

  deferTurn(turn: ClaimedTurn, reason: string, delayMs: number, countsAsRetry = true): Promise<void> {
    return deferTurn(this.sql, turn, reason, delayMs, countsAsRetry);
  }

  async resolveEscalation(resolution: EscalationResolution): Promise<ResolutionOutcome> {
    const outcome = await resolveEscalation(this.sql, resolution);
    if (outcome.ok) this.onMessage?.();
    return outcome;
  }

  /**
   * A waiting tool call's result, from outside (003 section 3.4): recorded once, resuming the run
   * when it completes the waiting set; a duplicate or late report is acknowledged without effect.
   */
  async reportToolResult(report: ToolReport): Promise<ReportOutcome> {
    const outcome = await reportToolResult(this.sql, report);
    if (outcome.applied && outcome.resumed) this.onMessage?.();
    return outcome;
  }

  /** Watchdog: TIMEOUT reports for waiting calls past their deadline, by the database's clock. */
  async timeOutOverdueWaits(): Promise<{ runId: string; callId: string }[]> {
    const timedOut = await timeOutOverdueWaits(this.sql);
    if (timedOut.length > 0) this.onMessage?.();
    return timedOut;
  }

  /** Whether a pending escalation's deadline has passed, by the database's clock. */
  isEscalationOverdue(escalationId: string): Promise<boolean> {
    return isEscalationOverdue(this.sql, escalationId);
  }

  async cancelRun(runId: string, request: CancelRequest): Promise<CancelOutcome> {
    const outcome = await requestCancel(this.sql, runId, request);
    if (outcome.queued) this.onMessage?.();
    return outcome;
  }

  /** Queues a cancel; false when the run does not exist or already ended. */
  async requestCancel(runId: string, reason: string): Promise<boolean> {
    return (await this.cancelRun(runId, { reason })).queued;
  }

  runsWithPendingCancel(runIds: readonly string[]): Promise<Set<string>> {
    return runsWithPendingCancel(this.sql, runIds);
  }

  reclaimExpiredLeases(backoffMs: (retryCount: number) => number): Promise<ReclaimedRun[]> {
    return reclaimExpiredLeases(this.sql, backoffMs);
  }

  overdueEscalations(): Promise<OverdueEscalation[]> {
    return overdueEscalations(this.sql);
  }

  /** Watchdog: unclaimed escalations past their policy's backup time are offered to the backup group, once. */
  handOffUnclaimedToBackup(): Promise<HandedOff[]> {
    return handOffUnclaimedToBackup(this.sql);
  }

  /** Watchdog: an overdue escalation whose policy hands it off gets its new group and deadline, once. */
  handOffAtDeadline(handOff: DeadlineHandOff): Promise<HandedOff | null> {
    return handOffAtDeadline(this.sql, handOff);
  }

  closeMessagesOfEndedRuns(): Promise<number> {
    return closeMessagesOfEndedRuns(this.sql);
  }

  ensurePlannerStatistics(): Promise<void> {
    return ensurePlannerStatistics(this.sql);
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}

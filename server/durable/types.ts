import type { ArtifactRow, JsonObject, RunResultSummary, StoredArtifact, ToolWaitRequest } from "../engine";
import type { Spent } from "../usage/budget";
import type { EscalationKind, InboxKind, RunStatus, TurnOutcome } from "./lifecycle";

/** A claimed inbox message and the turn it opened on its run's head. */
export interface ClaimedTurn {
  readonly runId: string;
  readonly epoch: number;
  readonly turnId: string;
  readonly messageId: string;
  readonly kind: InboxKind;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly retryCount: number;
  /** Why the message was deferred last (a failed turn, an expired lease). */
  readonly deferReason: string | null;
  readonly workerId: string;
  /** The run as the claim read it (PostgreSQL reads it in the claim's statement, saving a round trip). */
  readonly snapshot?: TurnSnapshot;
  /** performance.now() when the claim was sent: its lease runs at most `leaseMs` from then (lease-gate.ts). */
  readonly claimSentAt?: number;
}

/** What a turn needs to re-execute its run: the run, its pinned definition, its ledger by key. */
export interface TurnSnapshot {
  readonly runId: string;
  readonly specification: string;
  readonly definition: unknown;
  readonly contextValues: Readonly<Record<string, boolean | number | string>>;
  readonly generatorOverride: unknown;
  /** Ledger payloads by call key ("event:…", "result:…", "note:…"). */
  readonly keyed: Map<string, Readonly<Record<string, unknown>>>;
  readonly lastSeq: number;
  /** The run's stored artifacts, so a replay reads none of them one round trip at a time. */
  readonly artifacts: readonly StoredArtifact[];
  /** A sub-run's parent and the parent's waiting call it reports to when it ends. */
  readonly parentRunId?: string | null;
  readonly parentCallId?: string | null;
  /** Whether the run ever waited for a tool: its end closes what still waits (calls, sub-runs). */
  readonly hasToolWaits?: boolean;
  /** The run's recorded token and cost totals, as committed before this turn. */
  readonly spent?: Spent;
  /** The run's budget (Run.budget as stored; read with server/usage/budget.ts readRunBudget). */
  readonly budget?: unknown;
}

export interface LedgerRow {
  readonly seq: number;
  readonly actor: string;
  readonly type: string;
  readonly payload: unknown;
  readonly callKey: string | null;
}

/** The columns of an artifact a commit writes: the engine's row shape (server/engine/domain/artifact-row.ts). */
export type { ArtifactRow };

export interface EscalationRow {
  /** "guard" when absent. */
  readonly kind?: EscalationKind;
  /** The attempt decided on; null for a budget escalation. */
  readonly artifactId: string | null;
  readonly stepName: string;
  readonly guardId: string;
  readonly feedback: string;
  readonly decisionKey: string | null;
}

/** Run columns a commit changes; undefined leaves a column alone. */
export interface HeadPatch {
  status?: Exclude<RunStatus, "dispatched">;
  workflowState?: unknown;
  currentStep?: string | null;
  currentState?: string;
  attemptIncrement?: number;
  stepsCompletedIncrement?: number;
  finalResult?: RunResultSummary;
  startedAt?: Date;
  finishedAt?: Date;
  /** A suspension's deadline, as a delay the database adds to its own clock; null clears it. */
  resumeDeadline?: { readonly afterMs: number } | null;
  watchdogNote?: string | null;
  /** Tokens and cost of the model calls the batch records, added to the run's totals. */
  usageIncrement?: Spent;
}

/** How a commit ends the turn: the lease is released, the claimed message is done, the turn's record written. */
export interface TurnEnd {
  readonly messageId: string;
  /** The turn's one record (003 section 4); absent only in tests of the store's commit itself. */
  readonly record?: TurnRecordInput;
}

/** What a turn delivered: its outcome and, for anything but success, the reason. */
export interface TurnRecordInput {
  readonly outcome: TurnOutcome;
  readonly reason?: string | null;
  readonly detail?: unknown;
}

/** A sub-run's result, reported to its parent's waiting call in the sub-run's final commit (the join). */
export interface ParentReport {
  readonly parentRunId: string;
  readonly callId: string;
  readonly result: JsonObject;
}

/** Everything one commit of a turn writes, atomically and only while the turn holds the run. */
export interface TurnBatch {
  readonly ledger: readonly LedgerRow[];
  readonly artifacts: readonly ArtifactRow[];
  readonly escalations: readonly EscalationRow[];
  readonly head: HeadPatch;
  /** New escalations expire this long after the commit, by the database's clock. */
  readonly escalationExpiresAfterMs?: number;
  /** Pending escalations of the run become cancelled (a cancelled run). */
  readonly cancelEscalations?: boolean;
  /** The tool calls the turn suspends on: the waiting set, its count and deadline, sub-runs started. */
  readonly waits?: readonly ToolWaitRequest[];
  /** The run ended: what it still waits for is cancelled, and so are its sub-runs that have not ended. */
  readonly closeWaits?: boolean;
  readonly parentReport?: ParentReport;
  readonly end?: TurnEnd;
}

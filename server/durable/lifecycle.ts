import { RUN_STATUSES, type RunStatus } from "../engine/run/run-record";

/**
 * The durable protocol's vocabulary (003 section 2), defined once: every status a run, an inbox
 * message or an escalation can have, and which of them end a run. SQL statements, services and
 * the UI's filters import these lists instead of retyping them.
 */
export { RUN_STATUSES, type RunStatus };

/** A run in one of these has ended: no turn will run it again. `escalated` is kept for runs recorded before durable runs. */
export const TERMINAL_RUN_STATUSES = ["succeeded", "failed", "escalated", "cancelled"] as const satisfies readonly RunStatus[];
export type TerminalRunStatus = (typeof TERMINAL_RUN_STATUSES)[number];

/** A run in one of these is held by a turn whose lease may expire. */
export const HELD_RUN_STATUSES = ["dispatched", "running"] as const satisfies readonly RunStatus[];

/** A run in one of these waits for a claim (a cancel may also take a held run over). */
export const CLAIMABLE_RUN_STATUSES = ["queued", "suspended"] as const satisfies readonly RunStatus[];

/**
 * Runs that have not ended, in the order of Run_live_partial_idx's predicate (the hot_path_indexes
 * migration). A statement meant to walk that index states `liveRunPredicate()` as written: SQLite
 * uses a partial index only when the query repeats its WHERE term.
 */
export const LIVE_RUN_STATUSES = [...CLAIMABLE_RUN_STATUSES, ...HELD_RUN_STATUSES] as const;
export function liveRunPredicate(alias?: string): string {
  return `${alias ? `${alias}.` : ""}"status" IN ('queued', 'suspended', 'dispatched', 'running')`;
}

export function isTerminalRunStatus(status: string): status is TerminalRunStatus {
  return (TERMINAL_RUN_STATUSES as readonly string[]).includes(status);
}

/**
 * What an inbox message asks for: start a run, resume it after a decision or its timeout, cancel
 * it, or deliver a waiting tool call's report (its result, or the timeout its deadline injected).
 */
export const INBOX_KINDS = ["start", "resume", "timeout", "cancel", "report"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/** `pending`/`deferred` are due (at `nextRetryAt`), `claimed` while a turn runs, `done` after. */
export const INBOX_STATUSES = ["pending", "deferred", "claimed", "done"] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export const DUE_INBOX_STATUSES = ["pending", "deferred"] as const satisfies readonly InboxStatus[];

/** An escalation is pending until a decision, the watchdog's timeout, or a cancel closes it. */
export const ESCALATION_STATUSES = ["pending", "approved", "rejected", "expired", "cancelled"] as const;
export type EscalationStatus = (typeof ESCALATION_STATUSES)[number];

/** What a person decides on an escalation: a guard's fatal verdict, or more budget for a run that crossed its own. */
export const ESCALATION_KINDS = ["guard", "budget"] as const;
export type EscalationKind = (typeof ESCALATION_KINDS)[number];

/** An experiment is queued until its first run starts, running until every sample has ended (or it is cancelled). */
export const EXPERIMENT_STATUSES = ["queued", "running", "completed", "cancelled", "failed"] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/** A waiting tool call (003's turn_waiting_tools): waiting until reported, timed out by its deadline, or cancelled with its run. */
export const TOOL_WAIT_STATUSES = ["waiting", "reported", "timed_out", "cancelled"] as const;
export type ToolWaitStatus = (typeof TOOL_WAIT_STATUSES)[number];

/** How a turn ended (003 section 4: every ending delivers); "lost": its lease expired or a cancel took the run over. */
export const TURN_OUTCOMES = ["succeeded", "failed", "suspended", "cancelled", "deferred", "lost"] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

/** 003 section 3.1.1: what entered a run's inbox or linked two runs, and in which direction. */
export const EDGE_PRIMITIVES = ["enqueue", "report", "join", "tool_call"] as const;
export type EdgePrimitive = (typeof EDGE_PRIMITIVES)[number];
export const EDGE_PHASES = ["request", "response"] as const;
export type EdgePhase = (typeof EDGE_PHASES)[number];

/** A list of statuses as an SQL literal list: `('a','b')`. Only for the constant lists above. */
export function sqlList(values: readonly string[]): string {
  return `(${values.map((value) => `'${value}'`).join(",")})`;
}

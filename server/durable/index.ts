/**
 * The durable run protocol (003), in one place: the lifecycle vocabulary, decisions, the store
 * that is the only writer of runs, inbox messages and decisions, the turn journal, the lease
 * gate and the doorbell. docs/durable-runs.md describes the protocol.
 */
export { DurableStore } from "./durable-store";
export { durableStoreForUrl, closeDurableStoreForUrl } from "./store-for-url";
export * from "./lifecycle";
export * from "./decision";
export { LeaseLostError, isLeaseLost, WorkflowArchivedError, isWorkflowArchived } from "./errors";
export { derivedId, timeOrderedId } from "./ids";
export type { ClaimedTurn, TurnBatch, TurnSnapshot, HeadPatch, LedgerRow } from "./types";
export type { NewDurableRun, SeededLedgerEntry } from "./store/enqueue-run";
export type { EscalationResolution, ResolutionOutcome } from "./store/resolve-escalation";
export type { CancelOutcome, CancelRequest } from "./store/request-cancel";
export { createDoorbell, ringLocalDoorbell, IPC_RING, type Doorbell } from "./doorbell";
export type { ToolReport } from "./store/report-tool-result";
export type { ReportOutcome } from "./store/tool-waits";
export { waitIdOf, MAX_SUB_RUN_DEPTH } from "./store/tool-waits";
export type { TurnRecordInput, ParentReport } from "./types";

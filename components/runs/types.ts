import type { RouterOutputs } from "@/server/api/root";

/** What run.get returns: the UI sees the server only through the router's types. */
export type RunDetail = RouterOutputs["run"]["get"];
export type RunAttempt = RunDetail["attempts"][number];
export type RunEscalation = RunDetail["escalations"][number];
export type RunLedger = RunDetail["ledger"];
export type RunLedgerEntry = RunLedger["entries"][number];
export type RunResult = NonNullable<RunDetail["finalResult"]>;
export type RunStepRun = RunDetail["stepRuns"][number];

/** What run.execution returns: waits, turns, execution edges, parent and sub-runs, the watchdog's actions. */
export type RunExecution = RouterOutputs["run"]["execution"];
export type RunToolWait = RunExecution["waits"]["items"][number];
export type RunTurn = RunExecution["turns"]["items"][number];
export type RunExecutionEdge = RunExecution["edges"]["items"][number];

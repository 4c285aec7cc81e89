/**
 * Tools that wait (issue 18, 003 suspension): a person's answer, a sub-workflow's result, an
 * outside system's report. Their registry leaf runs nothing: it throws ToolsPendingError with
 * what the durable store needs to record the wait. The call ledger records the action_call and
 * no result; after the report the ledger holds `result:<key>` and the call replays it.
 */
import type { JsonObject } from "../ports/call-ledger";

export const WAITING_TOOL_KINDS = ["person", "workflow", "external"] as const;
export type WaitingToolKind = (typeof WAITING_TOOL_KINDS)[number];

export interface ToolWaitRequest {
  /** The call's ledger key = the CallIdentity.key handed to the tool's run (ctx.identity.key). */
  readonly key: string;
  readonly tool: string;
  readonly kind: WaitingToolKind;
  readonly stepName: string;
  readonly attempt: number;
  readonly input: JsonObject;
  /** Bounded: 1 s .. 30 days. */
  readonly deadlineAfterMs: number;
  /** person */
  readonly question?: string;
  /** person (the form) / external (checked on report) */
  readonly resultSchema?: JsonObject;
  /** workflow: the sub-workflow's name */
  readonly workflow?: string;
  /** workflow: the sub-run's specification */
  readonly specification?: string;
}

/** Not a failure: the turn suspends until every wait is reported (or times out). */
export class ToolsPendingError extends Error {
  override readonly name = "ToolsPendingError";
  constructor(readonly waits: readonly ToolWaitRequest[]) {
    super(`Waiting for ${waits.length} tool call${waits.length === 1 ? "" : "s"}: ${waits.map((wait) => wait.tool).join(", ")}`);
  }
}

/** By name, not instanceof: the module may be bundled twice (Next.js chunks, Vitest graphs). */
export function isToolsPending(error: unknown): error is ToolsPendingError {
  return error instanceof Error && error.name === "ToolsPendingError" && Array.isArray((error as { waits?: unknown }).waits);
}

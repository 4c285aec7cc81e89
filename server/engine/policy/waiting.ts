/**
 * Tools that wait (003 section 3.3, after_execution = suspend): a person's answer, a sub-run's
 * result, an outside system's report. Such a tool runs nothing in the turn: it throws
 * ToolsPendingError, the call stays in the ledger without a result, and the turn suspends with
 * the waiting set. The report is recorded later under the call's key, and the resumed turn's
 * replay reads it back as the tool's result, as if the call had returned it.
 */
import type { JsonObject } from "../ports/call-ledger";

export const WAITING_TOOL_KINDS = ["person", "workflow", "external"] as const;
export type WaitingToolKind = (typeof WAITING_TOOL_KINDS)[number];

/** How long a wait may be given, whatever a document says. */
export const MIN_WAIT_MS = 1_000;
export const MAX_WAIT_MS = 30 * 24 * 60 * 60 * 1_000;

/** The result a deadline injects (data the policy reads, 003 section 3.6). */
export const TIMEOUT_ERROR_CODE = "TIMEOUT";
/** A sub-run that ended without success, as its parent's tool result. */
export const SUB_RUN_FAILED_CODE = "SUB_RUN_FAILED";

export interface ToolWaitRequest {
  /** The call's ledger key (the CallIdentity.key its run was handed): the report is recorded under it. */
  readonly key: string;
  readonly tool: string;
  readonly kind: WaitingToolKind;
  readonly stepName: string;
  readonly attempt: number;
  readonly input: JsonObject;
  readonly deadlineAfterMs: number;
  /** person: what the reviewer is asked. */
  readonly question?: string;
  /** person: the answer's form; external: the schema a report must match. */
  readonly resultSchema?: JsonObject;
  /** workflow: the sub-workflow's name and the sub-run's specification. */
  readonly workflow?: string;
  readonly specification?: string;
}

/**
 * Thrown through every policy (it is neither a tool's failure nor a broken invariant) up to the
 * worker's turn, which suspends the run on `waits`. invoke_action gathers the waits of one model
 * turn into one error, so a model that asks two people at once waits for both.
 */
export class ToolsPendingError extends Error {
  override readonly name = "ToolsPendingError";
  readonly waits: readonly ToolWaitRequest[];

  constructor(waits: readonly ToolWaitRequest[]) {
    super(`Waiting for ${waits.length} tool call${waits.length === 1 ? "" : "s"}: ${waits.map((wait) => wait.tool).join(", ")}`);
    for (const wait of waits) {
      if (!Number.isInteger(wait.deadlineAfterMs) || wait.deadlineAfterMs < MIN_WAIT_MS || wait.deadlineAfterMs > MAX_WAIT_MS) {
        throw new RangeError(`Tool ${wait.tool}: a wait lasts from ${MIN_WAIT_MS} ms to ${MAX_WAIT_MS} ms, got ${wait.deadlineAfterMs}`);
      }
    }
    this.waits = Object.freeze([...waits]);
  }
}

/** By name as well as class: a second copy of the engine in a bundle must still be recognised. */
export function isToolsPending(error: unknown): error is ToolsPendingError {
  return error instanceof ToolsPendingError || (error instanceof Error && error.name === "ToolsPendingError" && Array.isArray((error as { waits?: unknown }).waits));
}

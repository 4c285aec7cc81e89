/**
 * The codes of the failures the policy runtime hands back as data (002 section 5.4), defined once.
 * A policy sees them in an action_result step; none is ever thrown through it.
 */
export const POLICY_ERROR_CODES = {
  /** The name is not a policy the caller may call (or not registered at all). */
  unknownTool: "UNKNOWN_TOOL",
  /** The input is not JSON, not an object, too large or too deep, or does not match the schema. */
  invalidArguments: "INVALID_ARGUMENTS",
  /** The called policy threw something other than a CallFailedError. */
  toolFailed: "TOOL_FAILED",
  /** loop_wrapper stopped a policy that was still making calls on its last turn. */
  maxTurns: "MAX_TURNS",
  /** invoke_action answered a call beyond its per-turn bound without running it. */
  tooManyCalls: "TOO_MANY_TOOL_CALLS",
  /** A call below the run's deepest allowed nesting (a policy calling itself without end). */
  callTooDeep: "CALL_TOO_DEEP",
  /** A recorded result that cannot be read back as steps. */
  corruptRecord: "CORRUPT_RECORD",
} as const;

/**
 * A broken invariant of the runtime or of a policy's code (002 section 10.1: let it crash). It
 * propagates through every policy and is never recorded as a result, so a fixed policy replays.
 */
export class PolicyInvariantError extends Error {
  override readonly name = "PolicyInvariantError";
}

/**
 * The ledger itself failed (the database went away, the worker lost its lease mid-record): not a
 * policy's failure, so never recorded as one. It propagates through every policy like a crash.
 */
export class PolicyLedgerError extends Error {
  override readonly name = "PolicyLedgerError";
}

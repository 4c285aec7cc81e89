/**
 * Thrown when a parsed condition cannot be evaluated against a scope (unknown name, a value of the
 * wrong type, an ordering between different types). Parsing never throws; it returns a result.
 * Not an EngineError subclass: that taxonomy is closed in ../errors.ts; detect this one by code.
 */
export class ConditionError extends Error {
  override readonly name = "ConditionError";
  readonly code = "INVALID_CONDITION";
}

/** Duck-typed like isEngineError, so it survives duplicate bundles where instanceof does not. */
export function isConditionError(error: unknown): error is ConditionError {
  return error instanceof Error && (error as { code?: unknown }).code === "INVALID_CONDITION";
}

/**
 * The engine's closed error taxonomy. Each error has a stable `name` and `code`; callers detect
 * them with `isEngineError(error, code)`, which survives duplicate bundles where instanceof does not.
 */
const ENGINE_ERROR_CODES = ["PRECONDITION_NOT_MET", "ARTIFACT_NOT_FOUND", "ARTIFACT_EXISTS", "RUN_NOT_FOUND", "INVALID_WORKFLOW", "GENERATION_FAILED", "GUARD_UNAVAILABLE"] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

export class EngineError extends Error {
  override readonly name: string = "EngineError";
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** ActionPair.execute was called while its precondition ρ does not hold (001 `PreconditionNotMet`). */
export class PreconditionNotMetError extends EngineError {
  override readonly name = "PreconditionNotMetError";
  constructor(stepName: string) {
    super("PRECONDITION_NOT_MET", `Precondition not satisfied for step "${stepName}"`);
  }
}

export class ArtifactNotFoundError extends EngineError {
  override readonly name = "ArtifactNotFoundError";
  constructor(readonly artifactId: string) {
    super("ARTIFACT_NOT_FOUND", `Artifact not found: ${artifactId}`);
  }
}

export class ArtifactExistsError extends EngineError {
  override readonly name = "ArtifactExistsError";
  constructor(readonly artifactId: string) {
    super("ARTIFACT_EXISTS", `Artifact already stored (artifacts are immutable): ${artifactId}`);
  }
}

export function isEngineError(error: unknown, code?: EngineErrorCode): error is EngineError {
  if (!(error instanceof Error)) return false;
  const errorCode = (error as { code?: unknown }).code;
  return (ENGINE_ERROR_CODES as readonly unknown[]).includes(errorCode) && (code === undefined || errorCode === code);
}

export class RunNotFoundError extends EngineError {
  override readonly name = "RunNotFoundError";
  constructor(readonly runId: string) {
    super("RUN_NOT_FOUND", `Run not found: ${runId}`);
  }
}

/** The workflow handed to the engine cannot run as given; the message names the step and field. */
export class InvalidWorkflowError extends EngineError {
  override readonly name = "InvalidWorkflowError";
  constructor(message: string) {
    super("INVALID_WORKFLOW", message);
  }
}

/**
 * The generator could not produce an artifact (the model endpoint failed for good, a cassette
 * ran out). The failure is already in the ledger as data; the step fails with this reason
 * instead of crashing the worker.
 */
export class GenerationFailedError extends EngineError {
  override readonly name = "GenerationFailedError";
  constructor(
    message: string,
    readonly reason: string = "GENERATION_FAILED",
  ) {
    super("GENERATION_FAILED", message);
  }
}

/**
 * A guard cannot check anything as this server is configured (its sandbox's runtime is missing,
 * say). Not the artifact's fault and not feedback a model could act on: the step fails at once
 * with the reason, spending no retry and asking no person.
 */
export class GuardUnavailableError extends EngineError {
  override readonly name = "GuardUnavailableError";
  constructor(message: string) {
    super("GUARD_UNAVAILABLE", message);
  }
}

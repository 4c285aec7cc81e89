/**
 * The engine's closed error taxonomy. Each error has a stable `name` and `code`; callers detect
 * them with `isEngineError(error, code)`, which survives duplicate bundles where instanceof does not.
 */
const ENGINE_ERROR_CODES = ["PRECONDITION_NOT_MET", "ARTIFACT_NOT_FOUND", "ARTIFACT_EXISTS", "RUN_NOT_FOUND", "INVALID_WORKFLOW", "GENERATION_FAILED", "STEP_CONFIGURATION", "GUARD_UNAVAILABLE"] as const;
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
 * A guard or generator is configured so that no attempt can succeed (a tdd guard with no `test`
 * dependency, a test guard with no tests). Not the artifact's fault and not feedback a model
 * could act on: the step fails at once with the reason, spending no retry and asking no person,
 * whatever its on_failure says. The validator reports the same mistakes before a run; this
 * covers documents that reached the engine some other way.
 */
export class StepConfigurationError extends EngineError {
  override readonly name: string = "StepConfigurationError";
  constructor(
    message: string,
    /** Whose configuration is wrong: the workflow document's, or this server's. */
    readonly source: "workflow" | "server" = "workflow",
    code: "STEP_CONFIGURATION" | "GUARD_UNAVAILABLE" = "STEP_CONFIGURATION",
  ) {
    super(code, message);
  }
}

/**
 * A guard cannot check anything as this server is configured (its sandbox's runtime is missing,
 * say): a configuration error whose fix is on the server, not in the document.
 */
export class GuardUnavailableError extends StepConfigurationError {
  override readonly name = "GuardUnavailableError";
  constructor(message: string) {
    super(message, "server", "GUARD_UNAVAILABLE");
  }
}

/** Either configuration error, detected by code (see isEngineError), with where its fix belongs. */
export function configurationErrorOf(error: unknown): { readonly reason: string; readonly source: "workflow" | "server" } | undefined {
  if (isEngineError(error, "GUARD_UNAVAILABLE")) return { reason: error.message, source: "server" };
  if (isEngineError(error, "STEP_CONFIGURATION")) return { reason: error.message, source: (error as { source?: unknown }).source === "server" ? "server" : "workflow" };
  return undefined;
}

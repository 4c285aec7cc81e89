import { GenerationFailedError, type CallError } from "../engine";

/**
 * Generators fail with the engine's GenerationFailedError (name "GenerationFailedError", engine
 * code GENERATION_FAILED) so the engine recognises it (isEngineError) and routes it to the step's
 * failure policy instead of crashing the run. The failed call's own code (SERVER_ERROR, AUTH...)
 * travels in `reason`. A second class of the same name here would not be recognised by the engine.
 */
export { GenerationFailedError };

/** The error for a model call the ledger recorded as failed (002 section 5.4, error as data). */
export function modelCallFailed(error: CallError): GenerationFailedError {
  return new GenerationFailedError(`The model call failed: ${error.message}`, error.code);
}

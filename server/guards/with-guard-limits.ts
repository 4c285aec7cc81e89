import { abortable, configurationErrorOf, failed, type Guard, type GuardResult } from "../engine";

/**
 * What every guard of the library promises, added in one place: it answers within its time
 * limit, records its duration, and turns an unexpected exception into a failed verdict
 * instead of crashing the run (bad content is always a verdict). An abort (cancel, shutdown)
 * and a guard that cannot work as configured (StepConfigurationError, GuardUnavailableError) are not
 * verdicts: they propagate, so the step fails at once and no model sees them as feedback.
 */
export function withGuardLimits(kind: string, guard: Guard, timeoutMs: number): Guard {
  return {
    async validate(artifact, dependencies, options) {
      const signal = options?.signal;
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<GuardResult>((resolve) => {
        timer = setTimeout(() => resolve(failed(`The ${kind} guard did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      let result: GuardResult;
      try {
        result = await abortable(Promise.race([guard.validate(artifact, dependencies, options), timeout]), signal);
      } catch (error) {
        // A configuration problem (the server's or the document's) is not a verdict on the artifact.
        if (signal?.aborted || configurationErrorOf(error)) throw error;
        result = failed(`The ${kind} guard could not check the artifact: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        clearTimeout(timer);
      }
      return { ...result, durationMs: Math.round((performance.now() - started) * 100) / 100 };
    },
  };
}

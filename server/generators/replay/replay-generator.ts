import { abortableSleep, CallFailedError, EngineError, GenerationFailedError, requestPrompt, type Generator } from "../../engine";
import { attemptContent, attemptDelayMs, attemptToolCalls, MAX_DELAY_MS, type Cassette } from "./cassette";

export const CASSETTE_EXHAUSTED = "CASSETTE_EXHAUSTED";
/** A turn that calls tools, recorded for a step whose generator is not an agent: nothing could run them. */
export const CASSETTE_NOT_AGENT = "CASSETTE_NOT_AGENT";

/**
 * The cassette has no answer for this step and attempt. Its code is GENERATION_FAILED (with
 * reason CASSETTE_EXHAUSTED, like GenerationFailedError, whose literal name a subclass cannot
 * change) so the engine ends the step with this message as its reason instead of crashing the run.
 */
export class CassetteExhaustedError extends EngineError {
  override readonly name = "CassetteExhaustedError";
  readonly reason = CASSETTE_EXHAUSTED;
  constructor(
    readonly stepName: string,
    readonly attempt: number,
    readonly recordedAttempts: number,
  ) {
    super(
      "GENERATION_FAILED",
      recordedAttempts === 0
        ? `Cassette has no step "${stepName}" (asked for attempt ${attempt})`
        : `Cassette exhausted for step "${stepName}": asked for attempt ${attempt}, the cassette has ${recordedAttempts} attempt${recordedAttempts === 1 ? "" : "s"}`,
    );
  }
}

export interface ReplayGeneratorOptions {
  /**
   * How delay_ms is waited out; tests inject one that records instead of sleeping. It must
   * reject with the signal's reason when the signal aborts (a cancelled run stops waiting).
   */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A generator that answers from a cassette: attempt N of step S is `steps[S][N - 1]`. The answer
 * still goes through the run's call ledger, so a replayed run leaves the same trail as a live one
 * (and a re-run after a crash takes recorded answers from the ledger without waiting again).
 */
export function createReplayGenerator(cassette: Cassette, options: ReplayGeneratorOptions = {}): Generator {
  const sleep = options.sleep ?? abortableSleep;
  return {
    async generate(request) {
      const { stepName: step, attempt } = request;
      // Own keys only: a step named "constructor" must not find Object.prototype's.
      const recorded = Object.hasOwn(cassette.steps, step) ? cassette.steps[step]! : [];
      const entry = recorded[attempt - 1];
      const delayMs = entry === undefined ? 0 : attemptDelayMs(entry);

      const outcome = await request.calls.call(`${request.callKey}/replay`, { actor: "assistant", policy: "replay", payload: { step, attempt } }, async () => {
        // Recorded in the ledger as data, like a failed model call, before the step fails.
        if (entry === undefined) throw new CallFailedError(CASSETTE_EXHAUSTED, new CassetteExhaustedError(step, attempt, recorded.length).message);
        if (attemptToolCalls(entry).length > 0) {
          throw new CallFailedError(CASSETTE_NOT_AGENT, `Cassette entry steps.${step}[${attempt - 1}] is an agent's turn that calls tools, and step "${step}" has no agent generator: record its answer as content only`);
        }
        // An abort rejects with its reason, not a CallFailedError: nothing is recorded, the run resumes elsewhere.
        if (delayMs > 0) await sleep(Math.min(delayMs, MAX_DELAY_MS), request.signal);
        return { content: attemptContent(entry) };
      });
      if (!outcome.ok && outcome.error.code === CASSETTE_NOT_AGENT) throw new GenerationFailedError(outcome.error.message, CASSETTE_NOT_AGENT);
      if (!outcome.ok) throw new CassetteExhaustedError(step, attempt, recorded.length);
      // The prompt a live generator would send for this attempt: reviewers see the feedback it carries.
      const prompt = requestPrompt(request);
      return { content: String(outcome.result.content), metadata: { generator: "replay", delayMs, replayed: outcome.replayed, prompt } };
    },
  };
}

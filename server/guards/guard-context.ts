import type { GuardLanguage } from "./language";

/** The OpenAI-compatible endpoint the llm_judge guard calls. */
export interface JudgeEndpoint {
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly model?: string;
}

/** The verdicts a replayed run's llm_judge guards answer from (a cassette's `judges` of one step). */
export interface JudgeReplay {
  readonly stepName: string;
  readonly verdicts: readonly { readonly passed: boolean; readonly feedback: string }[];
}

/**
 * What guards get from where they run rather than from their own options: the artifact's
 * language when the guard does not name one, the model endpoint, and the python3 to use.
 */
export interface GuardContext {
  readonly language?: GuardLanguage;
  readonly judge?: JudgeEndpoint;
  /** Set when the run replays a cassette: judges answer from it instead of calling a model. */
  readonly judgeReplay?: JudgeReplay;
  /** python3 by default; tests point it elsewhere to check the "python3 missing" verdicts. */
  readonly pythonExecutable?: string;
  /** The step accepts empty content (workflow option `allow_empty`); otherwise every guard fails it. */
  readonly allowEmpty?: boolean;
}

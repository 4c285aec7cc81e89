/** What a step test reports: per attempt the prompt, the output and every guard's verdict. */

export type VerdictKind = "pass" | "fail" | "fatal";

export interface PromptMessage {
  readonly role: "system" | "user";
  readonly content: string;
}

export interface GuardVerdictReport {
  /** 1-based place in the step's guards list. */
  readonly index: number;
  readonly kind: string;
  /** "not_run": an earlier guard already failed, so this one was not asked (as in a run). */
  readonly verdict: VerdictKind | "not_run";
  readonly feedback: string;
  readonly durationMs: number | null;
}

export interface AttemptReport {
  readonly attempt: number;
  /** The messages the generator sent or, for a replayed answer, would have sent. Empty when it failed before rendering. */
  readonly prompt: readonly PromptMessage[];
  /** The model's whole reply, when a model answered. */
  readonly rawOutput: string | null;
  /** The artifact the guards checked (the code block extracted from the reply, or the replayed answer); null when there was no answer. */
  readonly artifact: string | null;
  /** How long the generator took (the model call, or the replay). */
  readonly generationMs: number;
  readonly model: string | null;
  /** The step's verdict on this attempt, what a run would record; "no_answer" when the generator failed. */
  readonly verdict: VerdictKind | "no_answer";
  readonly feedback: string;
  /** Set when the reply was not an answer (empty, cut short): no guard ran. */
  readonly answerCheck: string | null;
  readonly guards: readonly GuardVerdictReport[];
}

export type StepTestOutcome =
  | { readonly kind: "passed" }
  /** Failed on the last attempt allowed; its feedback is the last attempt's. */
  | { readonly kind: "failed"; readonly feedback: string }
  /** A fatal verdict: a run would escalate to a person here. */
  | { readonly kind: "fatal"; readonly feedback: string }
  /** The generator gave no answer (the model call failed, the cassette has no answer for this attempt). */
  | { readonly kind: "generation_failed"; readonly reason: string }
  /** The test ran out of its time budget and was stopped. */
  | { readonly kind: "timed_out"; readonly reason: string };

export interface StepTestResult {
  readonly step: string;
  readonly generator: "model" | "answer" | "cassette";
  readonly outcome: StepTestOutcome;
  readonly attempts: readonly AttemptReport[];
  /** Attempts the test allowed: 1, or the step's retry budget + 1. */
  readonly attemptsAllowed: number;
  readonly durationMs: number;
}

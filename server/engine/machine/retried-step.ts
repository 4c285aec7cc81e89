import type { RetriedStep } from "./machine";

/** One attempt of an llm, code or transition step. */
export type StepAttempt<T> =
  | { readonly kind: "done"; readonly value: T }
  /** Worth another attempt: `answer` and `feedback` refine the next prompt when the model gave one. */
  | { readonly kind: "failed"; readonly reason: string; readonly answer?: string; readonly feedback?: string }
  /** A configuration error: no attempt can succeed, so none is retried and on_failure does not apply. */
  | { readonly kind: "misconfigured"; readonly reason: string };

export type RetriedOutcome<T> =
  | { readonly kind: "done"; readonly value: T; readonly attempts: number }
  | { readonly kind: "exhausted"; readonly reason: string; readonly attempts: number }
  | { readonly kind: "misconfigured"; readonly reason: string };

/**
 * Runs attempts 1…maxRetries + 1 until one is done. `attempt` gets its 1-based number;
 * `onFailedAttempt` is told of each failure (to record it, and refine the next prompt) before the
 * next attempt starts.
 */
export async function runRetried<T>(
  step: RetriedStep,
  attempt: (number: number) => Promise<StepAttempt<T>>,
  onFailedAttempt: (number: number, failure: Extract<StepAttempt<T>, { kind: "failed" }>) => Promise<void>,
): Promise<RetriedOutcome<T>> {
  const attempts = (step.maxRetries ?? 0) + 1;
  let previous: Extract<StepAttempt<T>, { kind: "failed" }> | undefined;
  for (let number = 1; number <= attempts; number++) {
    const outcome = await attempt(number);
    if (outcome.kind === "done") return { kind: "done", value: outcome.value, attempts: number };
    if (outcome.kind === "misconfigured") return outcome;
    await onFailedAttempt(number, outcome);
    previous = outcome;
  }
  const reason = previous?.reason ?? "no attempt was made";
  return { kind: "exhausted", reason: attempts > 1 ? `${reason} (after ${attempts} attempts)` : reason, attempts };
}

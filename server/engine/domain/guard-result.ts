/**
 * Immutable guard outcome (001 `GuardResult`): v ∈ {⊤, ⊥}, feedback φ, and ⊥_fatal.
 * Build it with the constructors below so that `fatal` always implies `!passed`.
 */
export interface GuardResult {
  readonly passed: boolean;
  readonly feedback: string;
  readonly fatal: boolean;
  /** How long the guard took, when measured (guard library wrapper). */
  readonly durationMs?: number;
  /** Set when the verdict waits on someone else: a human guard escalates with "human". */
  readonly awaiting?: "human";
}

export function passed(feedback = ""): GuardResult {
  return Object.freeze({ passed: true, feedback, fatal: false });
}

/** A retryable rejection: the feedback goes back into the next prompt. */
export function failed(feedback: string): GuardResult {
  return Object.freeze({ passed: false, feedback, fatal: false });
}

/** A non-recoverable rejection: the run escalates to a person at once, no retry. */
export function fatal(feedback: string): GuardResult {
  return Object.freeze({ passed: false, feedback, fatal: true });
}

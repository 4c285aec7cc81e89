export type Verdict = "passed" | "failed" | "FATAL";

/** What a guard said about an attempt: a fatal failure is not retried, it escalates. */
export function verdictOf(attempt: { passed: boolean; fatal: boolean }): Verdict {
  if (attempt.passed) return "passed";
  return attempt.fatal ? "FATAL" : "failed";
}

/** What an experiment's results are computed from: one entry per sample, gathered by the service. */

/** A sample's outcome once its run ended ("escalated": the run waits for a person's decision). */
export const SAMPLE_OUTCOMES = ["succeeded", "failed", "escalated", "cancelled"] as const;
export type SampleOutcome = (typeof SAMPLE_OUTCOMES)[number];

export function isSampleOutcome(value: unknown): value is SampleOutcome {
  return typeof value === "string" && (SAMPLE_OUTCOMES as readonly string[]).includes(value);
}

export interface SampleFacts {
  readonly caseKey: string;
  /** The case's place in the dataset version, for ordering. */
  readonly position: number;
  readonly sample: number;
  readonly runId: string | null;
  /** Null while the sample has no run or its run has not ended. */
  readonly outcome: SampleOutcome | null;
  /** Guarded attempts made, by step name. */
  readonly attemptsByStep: Readonly<Record<string, number>>;
  /** Whether every guarded step the run took passed on its first attempt. */
  readonly firstAttemptPassed: boolean;
  /** Why the run escalated ("implement/g_tests: 2 tests failed"), one per escalation. */
  readonly escalationReasons: readonly string[];
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  /** From the run's start to its end (or its escalation); null until then. */
  readonly latencyMs: number | null;
}

/** Samples that count in the rates: ended, and not cancelled (a cancelled experiment's leftovers say nothing). */
export function isScored(sample: SampleFacts): boolean {
  return sample.outcome !== null && sample.outcome !== "cancelled";
}

import { CLAIM_BUCKETS, GUARD_BUCKETS, LabelledHistogram } from "./histogram";
import type { HistogramSeries } from "./exposition";

export type ClaimOutcome = "claimed" | "empty" | "error";
export type GuardVerdict = "passed" | "failed" | "fatal";

/** What one worker process measured, as it publishes it for the web process's /metrics (worker-metrics-store.ts). */
export interface WorkerMetricsSnapshot {
  readonly workerId: string;
  /** ISO 8601: when it was published; a snapshot not renewed for a while belongs to a stopped worker. */
  readonly at: string;
  readonly claims: readonly HistogramSeries[];
  readonly guards: readonly HistogramSeries[];
}

/**
 * The durations only the process doing the work can measure: how long claims take (by outcome)
 * and how long guards take to give a verdict (by verdict). Counts since the process started.
 */
export class WorkerMetrics {
  readonly claims = new LabelledHistogram<ClaimOutcome>("outcome", CLAIM_BUCKETS);
  readonly guards = new LabelledHistogram<GuardVerdict>("verdict", GUARD_BUCKETS);

  snapshot(workerId: string, at: Date): WorkerMetricsSnapshot {
    return { workerId, at: at.toISOString(), claims: this.claims.series(), guards: this.guards.series() };
  }
}

import type { HistogramSeries } from "./exposition";

/** Seconds a claim statement takes: a busy PostgreSQL inbox shows up here first. */
export const CLAIM_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;
/** Seconds a guard takes to give its verdict: from a regex (micro-seconds) to a test suite or an llm judge (minutes). */
export const GUARD_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300] as const;

/**
 * A histogram with one label whose values are a fixed, short list (so a series cannot multiply
 * with what a workflow or a model says): in-process counts, read as HistogramSeries.
 */
export class LabelledHistogram<L extends string> {
  readonly #series = new Map<L, { counts: number[]; sum: number }>();

  constructor(
    readonly label: string,
    readonly buckets: readonly number[],
  ) {}

  observe(value: L, seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    let series = this.#series.get(value);
    if (!series) {
      series = { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0 };
      this.#series.set(value, series);
    }
    const index = this.buckets.findIndex((bound) => seconds <= bound);
    series.counts[index === -1 ? this.buckets.length : index]! += 1;
    series.sum += seconds;
  }

  series(extraLabels: Readonly<Record<string, string>> = {}): HistogramSeries[] {
    return [...this.#series].map(([value, series]) => ({ labels: { ...extraLabels, [this.label]: value }, buckets: this.buckets, counts: [...series.counts], sum: series.sum }));
  }
}

/**
 * Nearest-rank percentile (the smallest value with at least p% of the sample at or below it):
 * always a value that occurred, so "p95 time to decision: 4 h" names a real decision. Null for
 * an empty sample. `p` is in (0, 100].
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[rank - 1]!;
}

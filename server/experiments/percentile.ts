/**
 * The p-th percentile (0..100) of `values` by linear interpolation between closest ranks (the
 * method of NumPy's default and of spreadsheets' PERCENTILE.INC); null for no values.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be between 0 and 100 (got ${p})`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.ceil(rank);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (rank - below);
}

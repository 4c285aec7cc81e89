/**
 * The unbiased pass@k estimator of the Codex paper (Chen et al. 2021, "Evaluating Large Language
 * Models Trained on Code"): with n samples of a case of which c passed, the chance that at least
 * one of k samples drawn without replacement passes, 1 - C(n-c, k) / C(n, k).
 *
 * The binomials overflow for realistic n, so the ratio is computed as the paper's numerically
 * stable product: C(n-c, k) / C(n, k) = Π_{i = n-c+1..n} (1 - k / i).
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k)) throw new RangeError("pass@k: n, c and k must be whole numbers");
  if (n < 0 || c < 0 || c > n) throw new RangeError(`pass@k: need 0 <= c <= n (n=${n}, c=${c})`);
  if (k < 1 || k > n) throw new RangeError(`pass@k: need 1 <= k <= n (n=${n}, k=${k})`);
  // Fewer failures than k: every draw of k contains a pass.
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** pass@k of a whole dataset: the mean over the cases that have at least k finished samples (null when none has). */
export function meanPassAtK(cases: readonly { readonly n: number; readonly c: number }[], k: number): number | null {
  const eligible = cases.filter((item) => item.n >= k);
  if (eligible.length === 0) return null;
  return eligible.reduce((sum, item) => sum + passAtK(item.n, item.c, k), 0) / eligible.length;
}

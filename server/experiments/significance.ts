/**
 * The tests behind "does this difference exceed noise?", for the compare page and `dualstate eval
 * --baseline`. Samples are treated as independent draws; samples of one case are not (a hard case
 * fails every time), so these tests lean towards calling a difference real. docs/experiments.md says so.
 */

/** Two-sided tests use this level: a difference is called real when p < 0.05. */
export const SIGNIFICANCE_LEVEL = 0.05;
const Z_95 = 1.959963984540054;

/** The standard normal CDF, via erf (Abramowitz & Stegun 7.1.26; absolute error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** The 95% Wilson score interval of a proportion of `successes` in `trials` (null without trials). */
export function wilsonInterval(successes: number, trials: number): Interval | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (Z_95 / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface DifferenceTest {
  /** B minus A. */
  readonly delta: number;
  /** Two-sided p-value; null when the test cannot be computed (no samples, or no variation at all). */
  readonly pValue: number | null;
  readonly exceedsNoise: boolean;
  /** One sentence for a person: the test used, the numbers, and the verdict. */
  readonly statement: string;
}

/** The pooled two-proportion z-test of A's `a.successes/a.trials` against B's. */
export function twoProportionTest(a: { successes: number; trials: number }, b: { successes: number; trials: number }, what = "the rate"): DifferenceTest {
  if (a.trials === 0 || b.trials === 0) return { delta: 0, pValue: null, exceedsNoise: false, statement: `No test of ${what}: one experiment has no finished samples.` };
  const pa = a.successes / a.trials;
  const pb = b.successes / b.trials;
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  const delta = pb - pa;
  if (se === 0) return { delta, pValue: null, exceedsNoise: false, statement: `No difference in ${what} to test (${pct(pa)} in both, ${a.trials} and ${b.trials} samples).` };
  const z = delta / se;
  const pValue = 2 * (1 - normalCdf(Math.abs(z)));
  return { delta, pValue, exceedsNoise: pValue < SIGNIFICANCE_LEVEL, statement: verdict(what, `${pct(pa)} → ${pct(pb)}`, a.trials, b.trials, pValue, "two-proportion z-test") };
}

/**
 * A difference of means (cost, tokens, latency) by Welch's unequal-variance test, with the normal
 * distribution in place of Student's t (fine from a few dozen samples; said in the statement).
 */
export function meanDifferenceTest(a: readonly number[], b: readonly number[], what: string, format: (value: number) => string): DifferenceTest {
  if (a.length < 2 || b.length < 2) return { delta: mean(b) - mean(a), pValue: null, exceedsNoise: false, statement: `No test of ${what}: fewer than 2 samples in one experiment.` };
  const ma = mean(a);
  const mb = mean(b);
  const se = Math.sqrt(variance(a, ma) / a.length + variance(b, mb) / b.length);
  const delta = mb - ma;
  if (se === 0) return { delta, pValue: null, exceedsNoise: delta !== 0, statement: delta === 0 ? `No difference in ${what} (${format(ma)} in both).` : `${cap(what)} changed ${format(ma)} → ${format(mb)} with no variation within either experiment.` };
  const pValue = 2 * (1 - normalCdf(Math.abs(delta / se)));
  return { delta, pValue, exceedsNoise: pValue < SIGNIFICANCE_LEVEL, statement: verdict(what, `${format(ma)} → ${format(mb)}`, a.length, b.length, pValue, "Welch's test, normal approximation") };
}

function verdict(what: string, change: string, na: number, nb: number, pValue: number, test: string): string {
  const exceeds = pValue < SIGNIFICANCE_LEVEL;
  const p = pValue < 0.001 ? "p < 0.001" : `p = ${pValue.toFixed(3)}${exceeds ? " < 0.05" : " ≥ 0.05"}`;
  return `${cap(what)} ${change}: ${exceeds ? "exceeds" : "within"} noise for ${na} and ${nb} samples (${test}, ${p}).`;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function variance(values: readonly number[], m: number): number {
  return values.reduce((sum, value) => sum + (value - m) ** 2, 0) / (values.length - 1);
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

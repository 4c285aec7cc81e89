import { isScored, type SampleFacts } from "./sample-facts";
import { meanDifferenceTest, twoProportionTest, type DifferenceTest } from "./significance";
import { summarizeExperiment, type ExperimentSummary } from "./summarize-experiment";

export const CASE_CHANGES = ["newly_failing", "newly_passing", "now_escalating", "no_longer_escalating", "unchanged", "only_in_baseline", "only_in_candidate"] as const;
export type CaseChange = (typeof CASE_CHANGES)[number];

export interface CaseSide {
  readonly scored: number;
  readonly succeeded: number;
  readonly escalated: number;
  /** A case passes when most of its scored samples succeeded (with k = 1: its one sample did). */
  readonly passes: boolean;
}

export interface CaseComparison {
  readonly key: string;
  readonly baseline: CaseSide | null;
  readonly candidate: CaseSide | null;
  readonly change: CaseChange;
}

export interface MetricDelta {
  readonly metric: "pass_rate" | "first_attempt_pass_rate" | "escalation_rate" | "cost_usd" | "tokens" | "latency_ms";
  readonly baseline: number | null;
  readonly candidate: number | null;
  readonly test: DifferenceTest;
}

export interface ExperimentComparison {
  readonly baseline: ExperimentSummary;
  readonly candidate: ExperimentSummary;
  readonly cases: readonly CaseComparison[];
  readonly counts: Readonly<Record<CaseChange, number>>;
  readonly deltas: readonly MetricDelta[];
  /**
   * The candidate is worse: its pass rate fell by more than noise, or a case that passed in the
   * baseline fails now. What `dualstate eval --baseline` fails the build on.
   */
  readonly regression: boolean;
  readonly regressionReasons: readonly string[];
}

export interface ComparedExperiment {
  readonly samples: readonly SampleFacts[];
  readonly k: number;
}

/** Compares a candidate experiment with a baseline over the same dataset, case by case (by case key). */
export function compareExperiments(baseline: ComparedExperiment, candidate: ComparedExperiment): ExperimentComparison {
  const a = summarizeExperiment(baseline.samples, baseline.k);
  const b = summarizeExperiment(candidate.samples, candidate.k);
  const sidesA = caseSides(baseline.samples);
  const sidesB = caseSides(candidate.samples);
  const order = new Map<string, number>();
  for (const sample of [...baseline.samples, ...candidate.samples]) if (!order.has(sample.caseKey)) order.set(sample.caseKey, sample.position);
  const cases = [...order.keys()]
    .sort((x, y) => order.get(x)! - order.get(y)! || x.localeCompare(y))
    .map((key): CaseComparison => {
      const before = sidesA.get(key) ?? null;
      const after = sidesB.get(key) ?? null;
      return { key, baseline: before, candidate: after, change: changeOf(before, after) };
    });
  const counts = Object.fromEntries(CASE_CHANGES.map((change) => [change, cases.filter((item) => item.change === change).length])) as Record<CaseChange, number>;

  const scoredA = baseline.samples.filter(isScored);
  const scoredB = candidate.samples.filter(isScored);
  const firstA = scoredA.filter((sample) => sample.outcome === "succeeded" && sample.firstAttemptPassed).length;
  const firstB = scoredB.filter((sample) => sample.outcome === "succeeded" && sample.firstAttemptPassed).length;
  const latencies = (samples: readonly SampleFacts[]) => samples.flatMap((sample) => (sample.latencyMs === null ? [] : [sample.latencyMs]));
  const meanOf = (values: number[]) => (values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length);
  const costs = (samples: readonly SampleFacts[]) => samples.map((sample) => sample.costUsd);
  const tokens = (samples: readonly SampleFacts[]) => samples.map((sample) => sample.promptTokens + sample.completionTokens);
  const deltas: MetricDelta[] = [
    { metric: "pass_rate", baseline: a.passRate, candidate: b.passRate, test: twoProportionTest({ successes: a.succeeded, trials: a.scored }, { successes: b.succeeded, trials: b.scored }, "the pass rate") },
    { metric: "first_attempt_pass_rate", baseline: a.firstAttemptPassRate, candidate: b.firstAttemptPassRate, test: twoProportionTest({ successes: firstA, trials: a.scored }, { successes: firstB, trials: b.scored }, "the first-attempt pass rate") },
    { metric: "escalation_rate", baseline: a.escalationRate, candidate: b.escalationRate, test: twoProportionTest({ successes: a.escalated, trials: a.scored }, { successes: b.escalated, trials: b.scored }, "the escalation rate") },
    { metric: "cost_usd", baseline: meanOf(costs(scoredA)), candidate: meanOf(costs(scoredB)), test: meanDifferenceTest(costs(scoredA), costs(scoredB), "the cost per sample", (value) => `$${value.toFixed(4)}`) },
    { metric: "tokens", baseline: meanOf(tokens(scoredA)), candidate: meanOf(tokens(scoredB)), test: meanDifferenceTest(tokens(scoredA), tokens(scoredB), "the tokens per sample", (value) => value.toFixed(0)) },
    { metric: "latency_ms", baseline: meanOf(latencies(scoredA)), candidate: meanOf(latencies(scoredB)), test: meanDifferenceTest(latencies(scoredA), latencies(scoredB), "the latency per sample", (value) => `${Math.round(value)} ms`) },
  ];

  const regressionReasons: string[] = [];
  const passRate = deltas[0]!.test;
  if (passRate.delta < 0 && passRate.exceedsNoise) regressionReasons.push(passRate.statement);
  if (counts.newly_failing > 0) {
    const keys = cases.filter((item) => item.change === "newly_failing").map((item) => item.key);
    regressionReasons.push(`${keys.length} case${keys.length === 1 ? "" : "s"} passed in the baseline and fail now: ${keys.slice(0, 10).join(", ")}${keys.length > 10 ? ", …" : ""}`);
  }
  return { baseline: a, candidate: b, cases, counts, deltas, regression: regressionReasons.length > 0, regressionReasons };
}

function caseSides(samples: readonly SampleFacts[]): Map<string, CaseSide> {
  const sides = new Map<string, { scored: number; succeeded: number; escalated: number }>();
  for (const sample of samples) {
    const side = sides.get(sample.caseKey) ?? { scored: 0, succeeded: 0, escalated: 0 };
    if (isScored(sample)) {
      side.scored++;
      if (sample.outcome === "succeeded") side.succeeded++;
      if (sample.outcome === "escalated") side.escalated++;
    }
    sides.set(sample.caseKey, side);
  }
  return new Map([...sides].map(([key, side]) => [key, { ...side, passes: side.succeeded * 2 > side.scored }]));
}

function changeOf(before: CaseSide | null, after: CaseSide | null): CaseChange {
  if (!before || before.scored === 0) return "only_in_candidate";
  if (!after || after.scored === 0) return "only_in_baseline";
  if (before.passes && !after.passes) return "newly_failing";
  if (!before.passes && after.passes) return "newly_passing";
  if (before.escalated === 0 && after.escalated > 0) return "now_escalating";
  if (before.escalated > 0 && after.escalated === 0) return "no_longer_escalating";
  return "unchanged";
}

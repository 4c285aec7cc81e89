import { meanPassAtK } from "./pass-at-k";
import { percentile } from "../statistics/percentiles";
import { isScored, type SampleFacts, type SampleOutcome } from "./sample-facts";
import { wilsonInterval, type Interval } from "./significance";

/** Distinct escalation reasons listed, most frequent first. */
const MAX_REASONS = 20;

export interface ExperimentSummary {
  readonly samples: number;
  /** Samples whose run ended (cancelled included). */
  readonly ended: number;
  /** Ended and not cancelled: the denominator of every rate. */
  readonly scored: number;
  readonly succeeded: number;
  readonly passRate: number | null;
  readonly passRateInterval: Interval | null;
  /** pass@1..k, each the mean over cases with at least that many scored samples. */
  readonly passAtK: readonly { readonly k: number; readonly value: number | null }[];
  readonly firstAttemptPassRate: number | null;
  /** Mean guarded attempts per step, over the scored samples that ran the step. */
  readonly attemptsPerStep: readonly { readonly step: string; readonly mean: number; readonly samples: number }[];
  readonly escalated: number;
  readonly escalationRate: number | null;
  readonly escalationReasons: readonly { readonly reason: string; readonly count: number }[];
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  readonly latencyP50Ms: number | null;
  readonly latencyP95Ms: number | null;
}

export interface CaseResult {
  readonly key: string;
  readonly position: number;
  readonly samples: number;
  readonly scored: number;
  readonly succeeded: number;
  readonly escalated: number;
  /** "pending" until every sample ended; then passed (all scored samples succeeded), failed (none did) or mixed. */
  readonly outcome: "pending" | "passed" | "failed" | "mixed" | "cancelled";
  readonly attempts: number;
  readonly runs: readonly { readonly sample: number; readonly runId: string | null; readonly outcome: SampleOutcome | null }[];
}

/** The numbers of one experiment from its samples; `k` is the experiment's samples per case. */
export function summarizeExperiment(samples: readonly SampleFacts[], k: number): ExperimentSummary {
  const ended = samples.filter((sample) => sample.outcome !== null);
  const scored = samples.filter(isScored);
  const succeeded = scored.filter((sample) => sample.outcome === "succeeded").length;
  const escalated = scored.filter((sample) => sample.outcome === "escalated").length;
  const rate = (count: number) => (scored.length === 0 ? null : count / scored.length);

  const perCase = new Map<string, { n: number; c: number }>();
  for (const sample of scored) {
    const entry = perCase.get(sample.caseKey) ?? { n: 0, c: 0 };
    entry.n++;
    if (sample.outcome === "succeeded") entry.c++;
    perCase.set(sample.caseKey, entry);
  }
  const cases = [...perCase.values()];

  const steps = new Map<string, { total: number; samples: number }>();
  for (const sample of scored) {
    for (const [step, attempts] of Object.entries(sample.attemptsByStep)) {
      const entry = steps.get(step) ?? { total: 0, samples: 0 };
      entry.total += attempts;
      entry.samples++;
      steps.set(step, entry);
    }
  }

  const reasons = new Map<string, number>();
  for (const sample of scored) for (const reason of sample.escalationReasons) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);

  const latencies = ended.flatMap((sample) => (sample.latencyMs === null ? [] : [sample.latencyMs]));
  return {
    samples: samples.length,
    ended: ended.length,
    scored: scored.length,
    succeeded,
    passRate: rate(succeeded),
    passRateInterval: wilsonInterval(succeeded, scored.length),
    passAtK: Array.from({ length: Math.max(0, k) }, (_, index) => ({ k: index + 1, value: meanPassAtK(cases, index + 1) })),
    firstAttemptPassRate: rate(scored.filter((sample) => sample.outcome === "succeeded" && sample.firstAttemptPassed).length),
    attemptsPerStep: [...steps].map(([step, entry]) => ({ step, mean: entry.total / entry.samples, samples: entry.samples })).sort((a, b) => a.step.localeCompare(b.step)),
    escalated,
    escalationRate: rate(escalated),
    escalationReasons: [...reasons]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
      .slice(0, MAX_REASONS),
    promptTokens: sum(samples.map((sample) => sample.promptTokens)),
    completionTokens: sum(samples.map((sample) => sample.completionTokens)),
    costUsd: sum(samples.map((sample) => sample.costUsd)),
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
  };
}

/** One row per case, in dataset order. */
export function caseResults(samples: readonly SampleFacts[]): CaseResult[] {
  const byCase = new Map<string, SampleFacts[]>();
  for (const sample of samples) byCase.set(sample.caseKey, [...(byCase.get(sample.caseKey) ?? []), sample]);
  return [...byCase.entries()]
    .map(([key, list]): CaseResult => {
      const sorted = [...list].sort((a, b) => a.sample - b.sample);
      const scored = sorted.filter(isScored);
      const succeeded = scored.filter((sample) => sample.outcome === "succeeded").length;
      const pending = sorted.some((sample) => sample.outcome === null);
      const outcome = pending ? "pending" : scored.length === 0 ? "cancelled" : succeeded === scored.length ? "passed" : succeeded === 0 ? "failed" : "mixed";
      return {
        key,
        position: sorted[0]!.position,
        samples: sorted.length,
        scored: scored.length,
        succeeded,
        escalated: scored.filter((sample) => sample.outcome === "escalated").length,
        outcome,
        attempts: sum(sorted.map((sample) => sum(Object.values(sample.attemptsByStep)))),
        runs: sorted.map((sample) => ({ sample: sample.sample, runId: sample.runId, outcome: sample.outcome })),
      };
    })
    .sort((a, b) => a.position - b.position);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

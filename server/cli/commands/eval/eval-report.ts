import type { ExperimentComparison } from "@/server/experiments/compare-experiments";
import type { ExperimentDetail } from "@/server/services/experiments/get-experiment";

/** Exit codes of `dualstate eval`. */
export const EVAL_EXIT = { passed: 0, belowThreshold: 3, regression: 4, notCompleted: 5, badInput: 2 } as const;

export interface EvalVerdict {
  readonly exitCode: number;
  readonly reasons: readonly string[];
}

/** Fails the build below --fail-under, on a regression against --baseline, or when the experiment did not complete. */
export function evalVerdict(experiment: ExperimentDetail, failUnder: number | undefined, comparison: ExperimentComparison | undefined): EvalVerdict {
  const reasons: string[] = [];
  let exitCode: number = EVAL_EXIT.passed;
  if (experiment.status !== "completed") {
    return { exitCode: EVAL_EXIT.notCompleted, reasons: [`the experiment ended ${experiment.status}, not completed`] };
  }
  const passRate = experiment.summary.passRate ?? 0;
  if (failUnder !== undefined && passRate < failUnder) {
    reasons.push(`pass rate ${pct(passRate)} is below --fail-under ${pct(failUnder)}`);
    exitCode = EVAL_EXIT.belowThreshold;
  }
  if (comparison?.regression) {
    reasons.push(...comparison.regressionReasons.map((reason) => `regression against the baseline: ${reason}`));
    if (exitCode === EVAL_EXIT.passed) exitCode = EVAL_EXIT.regression;
  }
  return { exitCode, reasons };
}

/** The summary a person reads at the end of `dualstate eval`. */
export function humanReport(experiment: ExperimentDetail, comparison: ExperimentComparison | undefined, verdict: EvalVerdict): string {
  const s = experiment.summary;
  const lines = [
    `Experiment ${experiment.id}: ${experiment.workflow.name} v${experiment.workflow.version} over ${experiment.dataset.name} v${experiment.dataset.version}, k=${experiment.k}: ${experiment.status}`,
    `  pass rate ${pct(s.passRate)} (${s.succeeded}/${s.scored})${s.passRateInterval ? `, 95% interval ${pct(s.passRateInterval.low)}–${pct(s.passRateInterval.high)}` : ""}`,
    `  ${s.passAtK.map((entry) => `pass@${entry.k} ${pct(entry.value)}`).join(", ")}`,
    `  first-attempt pass rate ${pct(s.firstAttemptPassRate)}, escalation rate ${pct(s.escalationRate)}`,
    `  attempts per step: ${s.attemptsPerStep.length > 0 ? s.attemptsPerStep.map((step) => `${step.step} ${step.mean.toFixed(2)}`).join(", ") : "none"}`,
    `  tokens ${s.promptTokens} in / ${s.completionTokens} out, cost $${s.costUsd.toFixed(4)}, latency p50 ${ms(s.latencyP50Ms)} p95 ${ms(s.latencyP95Ms)}`,
  ];
  for (const reason of s.escalationReasons.slice(0, 5)) lines.push(`  escalated ${reason.count}×: ${reason.reason}`);
  const failing = experiment.cases.filter((row) => row.outcome !== "passed");
  for (const row of failing.slice(0, 20)) lines.push(`  case ${row.key}: ${row.outcome} (${row.succeeded}/${row.scored} passed)`);
  if (failing.length > 20) lines.push(`  … and ${failing.length - 20} more cases that did not pass`);
  if (comparison) {
    lines.push(`Against the baseline: ${comparison.counts.newly_failing} newly failing, ${comparison.counts.newly_passing} newly passing, ${comparison.counts.now_escalating} now escalating`);
    for (const delta of comparison.deltas) lines.push(`  ${delta.test.statement}`);
  }
  lines.push(verdict.exitCode === EVAL_EXIT.passed ? "PASSED" : `FAILED: ${verdict.reasons.join("; ")}`);
  return lines.join("\n");
}

/** The --json object: the experiment's numbers, its cases with their runs, the comparison, the verdict. */
export function jsonReport(experiment: ExperimentDetail, comparison: ExperimentComparison | undefined, verdict: EvalVerdict, failUnder: number | undefined) {
  return {
    experimentId: experiment.id,
    status: experiment.status,
    workflow: experiment.workflow,
    dataset: experiment.dataset,
    k: experiment.k,
    summary: experiment.summary,
    cases: experiment.cases.map((row) => ({ key: row.key, outcome: row.outcome, succeeded: row.succeeded, scored: row.scored, escalated: row.escalated, attempts: row.attempts, runs: row.runs })),
    ...(comparison
      ? {
          comparison: {
            regression: comparison.regression,
            regressionReasons: comparison.regressionReasons,
            counts: comparison.counts,
            deltas: comparison.deltas.map((delta) => ({ metric: delta.metric, baseline: delta.baseline, candidate: delta.candidate, ...delta.test })),
            changedCases: comparison.cases.filter((item) => item.change !== "unchanged").map((item) => ({ key: item.key, change: item.change })),
          },
        }
      : {}),
    failUnder: failUnder ?? null,
    passed: verdict.exitCode === EVAL_EXIT.passed,
    reasons: verdict.reasons,
  };
}

const pct = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)}%`);
const ms = (value: number | null) => (value === null ? "–" : `${Math.round(value)} ms`);

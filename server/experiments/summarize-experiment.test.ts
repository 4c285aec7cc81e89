import { describe, expect, it } from "vitest";
import { compareExperiments } from "./compare-experiments";
import type { SampleFacts } from "./sample-facts";
import { caseResults, summarizeExperiment } from "./summarize-experiment";

function sample(caseKey: string, index: number, outcome: SampleFacts["outcome"], extra: Partial<SampleFacts> = {}): SampleFacts {
  return {
    caseKey,
    position: Number(caseKey.replace(/\D/g, "")) || 0,
    sample: index,
    runId: `${caseKey}-${index}`,
    outcome,
    attemptsByStep: { implement: 1 },
    firstAttemptPassed: outcome === "succeeded",
    escalationReasons: [],
    promptTokens: 100,
    completionTokens: 50,
    costUsd: 0.01,
    latencyMs: 1000,
    ...extra,
  };
}

describe("summarizeExperiment", () => {
  const samples = [
    sample("c1", 1, "succeeded"),
    sample("c1", 2, "succeeded", { attemptsByStep: { implement: 3 }, firstAttemptPassed: false, latencyMs: 3000 }),
    sample("c2", 1, "failed", { attemptsByStep: { implement: 3 }, latencyMs: 2000 }),
    sample("c2", 2, "escalated", { attemptsByStep: { implement: 2 }, escalationReasons: ["implement/g: fatal"], latencyMs: 4000 }),
    sample("c3", 1, "cancelled", { attemptsByStep: {}, costUsd: 0, promptTokens: 0, completionTokens: 0, latencyMs: null }),
    sample("c3", 2, null, { runId: null, attemptsByStep: {}, costUsd: 0, promptTokens: 0, completionTokens: 0, latencyMs: null }),
  ];

  it("rates over scored samples (ended, not cancelled), pass@k over cases", () => {
    const summary = summarizeExperiment(samples, 2);
    expect(summary).toMatchObject({ samples: 6, ended: 5, scored: 4, succeeded: 2, escalated: 1 });
    expect(summary.passRate).toBe(0.5);
    expect(summary.firstAttemptPassRate).toBe(0.25);
    expect(summary.escalationRate).toBe(0.25);
    expect(summary.escalationReasons).toEqual([{ reason: "implement/g: fatal", count: 1 }]);
    // c1: 2 of 2 passed; c2: 0 of 2. pass@1 = (1 + 0) / 2; pass@2 = (1 + 0) / 2.
    expect(summary.passAtK).toEqual([{ k: 1, value: 0.5 }, { k: 2, value: 0.5 }]);
    expect(summary.attemptsPerStep).toEqual([{ step: "implement", mean: (1 + 3 + 3 + 2) / 4, samples: 4 }]);
    expect(summary.promptTokens).toBe(400);
    expect(summary.costUsd).toBeCloseTo(0.04, 12);
    // Nearest rank over [1000, 2000, 3000, 4000]: ranks ceil(0.5·4) = 2 and ceil(0.95·4) = 4.
    expect(summary.latencyP50Ms).toBe(2000);
    expect(summary.latencyP95Ms).toBe(4000);
  });

  it("an experiment without ended samples has no rates", () => {
    const summary = summarizeExperiment([sample("c1", 1, null)], 1);
    expect(summary.passRate).toBeNull();
    expect(summary.passAtK).toEqual([{ k: 1, value: null }]);
  });

  it("case rows in dataset order with their outcome and runs", () => {
    const rows = caseResults(samples);
    expect(rows.map((row) => [row.key, row.outcome, row.attempts])).toEqual([
      ["c1", "passed", 4],
      ["c2", "failed", 5],
      ["c3", "pending", 0],
    ]);
    expect(rows[1]!.runs).toEqual([
      { sample: 1, runId: "c2-1", outcome: "failed" },
      { sample: 2, runId: "c2-2", outcome: "escalated" },
    ]);
  });
});

describe("compareExperiments", () => {
  const baseline = [sample("c1", 1, "succeeded"), sample("c2", 1, "failed"), sample("c3", 1, "succeeded"), sample("c4", 1, "succeeded")];
  const candidate = [sample("c1", 1, "failed"), sample("c2", 1, "succeeded"), sample("c3", 1, "escalated", { escalationReasons: ["x"] }), sample("c4", 1, "succeeded")];

  it("names each case's change", () => {
    const comparison = compareExperiments({ samples: baseline, k: 1 }, { samples: candidate, k: 1 });
    expect(comparison.cases.map((item) => [item.key, item.change])).toEqual([
      ["c1", "newly_failing"],
      ["c2", "newly_passing"],
      ["c3", "newly_failing"],
      ["c4", "unchanged"],
    ]);
    expect(comparison.counts.newly_failing).toBe(2);
    expect(comparison.regression).toBe(true);
    expect(comparison.regressionReasons.join("\n")).toMatch(/2 cases passed in the baseline and fail now: c1, c3/);
    const passRate = comparison.deltas.find((delta) => delta.metric === "pass_rate")!;
    expect(passRate).toMatchObject({ baseline: 0.75, candidate: 0.5 });
    // Four samples each: a drop of 25 points is well within noise.
    expect(passRate.test.exceedsNoise).toBe(false);
  });

  it("a failing case that starts escalating is 'now escalating'; no case worse is no regression", () => {
    const comparison = compareExperiments({ samples: [sample("c1", 1, "failed")], k: 1 }, { samples: [sample("c1", 1, "escalated")], k: 1 });
    expect(comparison.cases[0]!.change).toBe("now_escalating");
    expect(comparison.regression).toBe(false);
  });

  it("a large, well-sampled drop in pass rate is a regression even without a newly failing case", () => {
    // 40 cases × 5 samples: 5/5 → 3/5 each, so every case still passes by majority.
    const many = (passing: number) => Array.from({ length: 40 }, (_, c) => Array.from({ length: 5 }, (_, s) => sample(`c${c}`, s + 1, s < passing ? "succeeded" : "failed"))).flat();
    const comparison = compareExperiments({ samples: many(5), k: 5 }, { samples: many(3), k: 5 });
    expect(comparison.counts.newly_failing).toBe(0);
    expect(comparison.regression).toBe(true);
    expect(comparison.regressionReasons[0]).toMatch(/exceeds noise for 200 and 200 samples/);
  });
});

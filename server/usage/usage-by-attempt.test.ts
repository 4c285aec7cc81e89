import { describe, expect, it } from "vitest";
import { attemptOfCallKey, summariseCallUsage } from "./usage-by-attempt";

describe("usage by step and attempt", () => {
  it("finds the step and attempt of generator, judge and agent call keys, revisits included", () => {
    expect(attemptOfCallKey("result:write_tests/attempt-1/model")).toEqual({ step: "write_tests", attempt: 1 });
    expect(attemptOfCallKey("result:implement#2/attempt-3/guard/g_impl/judge")).toEqual({ step: "implement", attempt: 3 });
    expect(attemptOfCallKey("result:agent/attempt-12/agent/call-4")).toEqual({ step: "agent", attempt: 12 });
    expect(attemptOfCallKey("result:something-else")).toBeNull();
  });

  it("sums each call into its run, step and attempt", () => {
    const summary = summariseCallUsage([
      { callKey: "result:write_tests/attempt-1/model", usage: { promptTokens: 10, completionTokens: 90 }, usd: 0.001 },
      { callKey: "result:implement/attempt-1/model", usage: { promptTokens: 20, completionTokens: 80 }, usd: 0.002 },
      { callKey: "result:implement/attempt-1/guard/judge", usage: { promptTokens: 5, completionTokens: 5 }, usd: 0.0001 },
      { callKey: "result:implement/attempt-2/model", usage: { promptTokens: 30, completionTokens: 70 }, usd: 0.003 },
      // A cassette's answer records no usage: a call that spent nothing.
      { callKey: "result:implement/attempt-3/replay", usage: null, usd: null },
    ]);
    expect(summary.total).toEqual({ promptTokens: 65, completionTokens: 245, costUsd: 0.0061, calls: 5 });
    expect(summary.byStep.implement).toEqual({ promptTokens: 55, completionTokens: 155, costUsd: 0.0051, calls: 4 });
    expect(summary.byAttempt["implement/attempt-1"]).toEqual({ promptTokens: 25, completionTokens: 85, costUsd: 0.0021, calls: 2 });
    expect(summary.byAttempt["write_tests/attempt-1"]?.calls).toBe(1);
  });

  it("ignores what a hostile record puts where numbers belong", () => {
    const summary = summariseCallUsage([{ callKey: null, usage: { promptTokens: "lots", completionTokens: -4 }, usd: "free" }]);
    expect(summary.total).toEqual({ promptTokens: 0, completionTokens: 0, costUsd: 0, calls: 1 });
  });
});

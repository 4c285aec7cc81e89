import { describe, expect, it } from "vitest";
import { costOfCall, priceFor, recordedCostUsd, roundUsd } from "./call-cost";
import { callModelNames, callUsageOf, MAX_TOKENS_PER_CALL } from "./call-usage";

const gpt = { model: "gpt-test", inputUsdPerMillion: 2.5, outputUsdPerMillion: 10 };

describe("cost of a call", () => {
  it("charges prompt and completion tokens at their own prices per million", () => {
    // 1,000 prompt tokens at $2.50/M = $0.0025; 500 completion tokens at $10/M = $0.005.
    expect(costOfCall({ promptTokens: 1_000, completionTokens: 500 }, gpt)).toEqual({ priced: true, usd: 0.0075, model: "gpt-test", inputUsdPerMillion: 2.5, outputUsdPerMillion: 10 });
  });

  it("is unpriced (and zero dollars) when the table has no price for the model", () => {
    expect(costOfCall({ promptTokens: 1_000, completionTokens: 500 }, null)).toEqual({ priced: false, usd: 0 });
  });

  it("rounds away floating-point dust but keeps a single cheap call above zero", () => {
    expect(roundUsd(0.1 + 0.2)).toBe(0.3);
    expect(costOfCall({ promptTokens: 1, completionTokens: 0 }, { model: "m", inputUsdPerMillion: 0.15, outputUsdPerMillion: 0 }).usd).toBe(0.00000015);
  });

  it("picks the price of the model the endpoint reported before the one asked for", () => {
    const prices = [gpt, { model: "gpt-test-2026-01", inputUsdPerMillion: 1, outputUsdPerMillion: 1 }];
    expect(priceFor(prices, ["gpt-test-2026-01", "gpt-test"])?.model).toBe("gpt-test-2026-01");
    expect(priceFor(prices, ["unknown", "gpt-test"])?.model).toBe("gpt-test");
    expect(priceFor(prices, ["unknown"])).toBeNull();
  });

  it("reads a recorded cost back, and nothing from a record without one", () => {
    expect(recordedCostUsd({ content: "x", cost: { priced: true, usd: 0.25 } })).toBe(0.25);
    expect(recordedCostUsd({ content: "x" })).toBe(0);
    expect(recordedCostUsd({ cost: { usd: "1" } })).toBe(0);
  });
});

describe("usage of a recorded call", () => {
  it("reads the counts a recorded reply keeps", () => {
    expect(callUsageOf({ usage: { promptTokens: 12, completionTokens: 34, totalTokens: 46 } })).toEqual({ promptTokens: 12, completionTokens: 34 });
  });

  it("reads nothing from a call without usage, or with none spent", () => {
    expect(callUsageOf({ content: "x" })).toBeNull();
    expect(callUsageOf({ usage: null })).toBeNull();
    expect(callUsageOf({ usage: { promptTokens: 0, completionTokens: 0 } })).toBeNull();
  });

  it("trusts no endpoint: negative, fractional, non-numeric and huge counts are bounded", () => {
    expect(callUsageOf({ usage: { promptTokens: -5, completionTokens: "7" } })).toBeNull();
    expect(callUsageOf({ usage: { promptTokens: 2.9, completionTokens: 1e30 } })).toEqual({ promptTokens: 2, completionTokens: MAX_TOKENS_PER_CALL });
  });

  it("names the model as reported first, then as asked for, each once", () => {
    expect(callModelNames({ model: "gpt-test" }, { model: "gpt-test-2026-01" })).toEqual(["gpt-test-2026-01", "gpt-test"]);
    expect(callModelNames({ model: "gpt-test" }, { model: "gpt-test" })).toEqual(["gpt-test"]);
    expect(callModelNames({ step: "x" }, { content: "y" })).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { budgetDecisionKey, checkBudget, checkGrant, describeCrossing, effectiveLimits, parseBudgetSpec, readRunBudget, withGrant, type RunBudget } from "./budget";
import { formatUsd } from "./format-usage";

const tokens = (limit: number, onExceed: RunBudget["onExceed"] = "escalate"): RunBudget => ({ tokens: limit, usd: null, onExceed, grants: [] });
const spent = (promptTokens: number, completionTokens: number, costUsd = 0) => ({ promptTokens, completionTokens, costUsd });

describe("budget check before a model call", () => {
  it("lets a run call while it has spent less than each limit", () => {
    expect(checkBudget(tokens(1_000), spent(600, 399))).toBeNull();
    expect(checkBudget(null, spent(1e9, 1e9, 1e6))).toBeNull();
  });

  it("stops it once a limit is reached, counting prompt and completion tokens", () => {
    expect(checkBudget(tokens(1_000), spent(600, 400))).toEqual({ spentTokens: 1_000, tokenLimit: 1_000, spentUsd: 0, usdLimit: null, reached: ["tokens"] });
  });

  it("checks money and tokens each against its own limit", () => {
    const both: RunBudget = { tokens: 10_000, usd: 0.5, onExceed: "fail", grants: [] };
    expect(checkBudget(both, spent(10, 10, 0.49))).toBeNull();
    expect(checkBudget(both, spent(10, 10, 0.5))?.reached).toEqual(["usd"]);
    expect(checkBudget(both, spent(9_000, 1_000, 0.7))?.reached).toEqual(["tokens", "usd"]);
  });

  it("adds every grant to the limit it raises", () => {
    const granted = withGrant(withGrant(tokens(1_000), { tokens: 500, usd: 0, by: "ada", at: "t1" }), { tokens: 250, usd: 0, by: "bob", at: "t2" });
    expect(effectiveLimits(granted)).toEqual({ tokens: 1_750, usd: null });
    expect(checkBudget(granted, spent(1_000, 700))).toBeNull();
    expect(checkBudget(granted, spent(1_000, 750))?.tokenLimit).toBe(1_750);
  });

  it("asks under a new decision key after each grant, under the same one until then", () => {
    const budget = tokens(1_000);
    expect(budgetDecisionKey(budget)).toBe("budget/1");
    expect(budgetDecisionKey(withGrant(budget, { tokens: 1, usd: 0, by: "ada", at: "t" }))).toBe("budget/2");
  });

  it("says what was spent against which limit", () => {
    const crossing = checkBudget({ tokens: 20_000, usd: 0.5, onExceed: "escalate", grants: [] }, spent(20_000, 450, 0.0123))!;
    expect(describeCrossing(crossing)).toBe("The run reached its budget: spent 20,450 tokens of 20,000 and $0.0123 of $0.50");
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(12.345)).toBe("$12.35");
  });
});

describe("a person's grant", () => {
  it("accepts a positive amount for a limit the budget has", () => {
    expect(checkGrant(tokens(1_000), { tokens: 5_000 })).toEqual([]);
  });

  it("names the field of each problem", () => {
    expect(checkGrant(tokens(1_000), { tokens: -1 })).toEqual([{ field: "tokens", message: expect.stringContaining("whole number") }]);
    expect(checkGrant(tokens(1_000), { tokens: 1.5 })[0]?.field).toBe("tokens");
    expect(checkGrant(tokens(1_000), { usd: 1 })).toEqual([{ field: "usd", message: "this run's budget has no money limit to raise" }]);
    expect(checkGrant(tokens(1_000), {})).toEqual([{ field: "tokens", message: "grant a positive amount" }]);
  });

  it("is refused after a hundred grants: a run that needs more is looping", () => {
    let budget = tokens(1);
    for (let i = 0; i < 100; i++) budget = withGrant(budget, { tokens: 1, usd: 0, by: "ada", at: "t" });
    expect(checkGrant(budget, { tokens: 1 })[0]?.message).toContain("100 grants");
  });
});

describe("a budget as a document or a request writes it", () => {
  it("reads tokens, usd and on_exceed (escalate by default)", () => {
    expect(parseBudgetSpec({ tokens: 20_000, usd: 0.5, on_exceed: "fail" })).toEqual({ ok: true, budget: { tokens: 20_000, usd: 0.5, onExceed: "fail", grants: [] } });
    expect(parseBudgetSpec({ usd: 2 })).toEqual({ ok: true, budget: { tokens: null, usd: 2, onExceed: "escalate", grants: [] } });
    expect(parseBudgetSpec({ tokens: 5, onExceed: "fail" })).toMatchObject({ ok: true, budget: { onExceed: "fail" } });
  });

  it("names each wrong field under its path", () => {
    const parsed = parseBudgetSpec({ tokens: 0, usd: -1, on_exceed: "shrug", extra: 1 }, "workflow.budget");
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((error) => error.field)).toEqual(["workflow.budget.extra", "workflow.budget.tokens", "workflow.budget.usd", "workflow.budget.on_exceed"]);
    expect(parseBudgetSpec({ on_exceed: "fail" })).toEqual({ ok: false, errors: [{ field: "budget", message: "needs tokens, usd or both" }] });
    expect(parseBudgetSpec("lots")).toMatchObject({ ok: false, errors: [{ field: "budget" }] });
  });

  it("reads Run.budget back, and anything it did not write as no budget", () => {
    const stored = { tokens: 100, usd: null, onExceed: "fail", grants: [{ tokens: 50, usd: 0, by: "ada", at: "t" }] };
    expect(readRunBudget(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
    expect(readRunBudget(null)).toBeNull();
    expect(readRunBudget({ tokens: -3 })).toBeNull();
    expect(readRunBudget({ tokens: 10, grants: "many" })).toEqual({ tokens: 10, usd: null, onExceed: "escalate", grants: [] });
  });
});

describe("dollars as the pages show them", () => {
  it("keeps cents, and the digits a cheap run needs", () => {
    expect(formatUsd(0.5)).toBe("$0.50");
    expect(formatUsd(0.0123)).toBe("$0.0123");
    expect(formatUsd(0.00002)).toBe("<$0.0001");
  });
});

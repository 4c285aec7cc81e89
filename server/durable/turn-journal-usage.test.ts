import { describe, expect, it } from "vitest";
import { isBudgetStop, type BudgetStop } from "./budget-stop";
import { TurnJournal } from "./turn-journal";
import type { ClaimedTurn, TurnBatch, TurnSnapshot } from "./types";

const turn: ClaimedTurn = { runId: "run-1", epoch: 1, turnId: "t", messageId: "m", kind: "start", payload: {}, retryCount: 0, deferReason: null, workerId: "w" };
const request = { actor: "assistant", policy: "model", payload: { model: "asked-model" } };
const reply = (completionTokens: number) => ({ content: "x", model: "reported-model", usage: { promptTokens: 100, completionTokens, totalTokens: 100 + completionTokens } });
const price = { model: "reported-model", inputUsdPerMillion: 1, outputUsdPerMillion: 2 };

function journalWith(snapshot: Partial<TurnSnapshot> = {}) {
  const commits: TurnBatch[] = [];
  const stops: BudgetStop[] = [];
  const asked: string[][] = [];
  const full: TurnSnapshot = { runId: "run-1", specification: "s", definition: {}, contextValues: {}, generatorOverride: undefined, keyed: new Map(), lastSeq: 0, artifacts: [], ...snapshot };
  const store = { commit: async (_turn: ClaimedTurn, batch: TurnBatch) => void commits.push(batch), getArtifact: async () => undefined };
  const journal = new TurnJournal(store, turn, full, {
    priceOf: async (names) => (asked.push([...names]), names.includes(price.model) ? price : null),
    stopTurn: (stop) => void stops.push(stop),
  });
  return { journal, commits, stops, asked };
}

describe("TurnJournal and usage", () => {
  it("records a call's cost at the price of the model the endpoint reported, and adds its usage to the run's totals in the same commit", async () => {
    const { journal, commits, asked } = journalWith();
    const outcome = await journal.calls.call("write/attempt-1/model", request, async () => reply(50));
    expect(asked).toEqual([["reported-model", "asked-model"]]);
    const cost = { priced: true, usd: 0.0002, model: "reported-model", inputUsdPerMillion: 1, outputUsdPerMillion: 2 };
    expect(outcome).toMatchObject({ ok: true, result: { cost } });
    const recorded = commits.find((batch) => batch.ledger.some((row) => row.type === "action_result"))!;
    expect(recorded.ledger.find((row) => row.type === "action_result")?.payload).toMatchObject({ cost });
    expect(recorded.head.usageIncrement).toEqual({ promptTokens: 100, completionTokens: 50, costUsd: 0.0002 });
    // The call before it (its request) moves no totals.
    expect(commits[0]?.head.usageIncrement).toBeUndefined();
  });

  it("adds nothing for a call read back from the ledger", async () => {
    const keyed = new Map([["result:write/attempt-1/model", { ...reply(50), cost: { priced: true, usd: 0.0002 } }]]);
    const { journal, commits, asked } = journalWith({ keyed });
    const outcome = await journal.calls.call("write/attempt-1/model", request, async () => reply(999));
    expect(outcome.replayed).toBe(true);
    expect(commits).toEqual([]);
    expect(asked).toEqual([]);
  });

  it("makes no call once the run reached its budget, and writes nothing more for the unwinding engine", async () => {
    const budget = { tokens: 200, usd: null, onExceed: "escalate", grants: [] };
    const { journal, stops } = journalWith({ budget, spent: { promptTokens: 0, completionTokens: 0, costUsd: 0 } });
    await journal.calls.call("write/attempt-1/model", request, async () => reply(50));
    let performed = 0;
    const second = journal.calls.call("write/attempt-2/model", request, async () => (performed++, reply(50)));
    await expect(second).resolves.toMatchObject({ ok: true });
    // 150 spent of 200: the second call was allowed; now 300 of 200, the third is not.
    await expect(journal.calls.call("write/attempt-3/model", request, async () => (performed++, reply(50)))).rejects.toSatisfy(isBudgetStop);
    expect(performed).toBe(1);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ action: "escalate", decisionKey: "budget/1", stepName: "write", message: "The run reached its budget: spent 300 tokens of 200" });
    await expect(journal.observer.record({ type: "run.started", specification: "s" }, "run.started")).rejects.toSatisfy(isBudgetStop);
  });

  it("fails instead when the decision under the crossing's key refused more", async () => {
    const keyed = new Map([["event:budget/1", { decision: "reject", decidedBy: "ada@example.com", comment: "enough" }]]);
    const { journal, stops } = journalWith({ keyed, budget: { tokens: 10, onExceed: "escalate", grants: [] }, spent: { promptTokens: 10, completionTokens: 0, costUsd: 0 } });
    await expect(journal.calls.call("write/attempt-1/model", request, async () => reply(1))).rejects.toSatisfy(isBudgetStop);
    expect(stops[0]).toMatchObject({ action: "fail", message: "The run reached its budget: spent 10 tokens of 10; ada@example.com refused more budget: enough" });
  });

  it("never checks a tool call against the budget", async () => {
    const { journal } = journalWith({ budget: { tokens: 10, onExceed: "fail", grants: [] }, spent: { promptTokens: 10, completionTokens: 0, costUsd: 0 } });
    await expect(journal.calls.call("write/attempt-1/agent/call-1", { actor: "assistant", policy: "read_dependency", payload: {} }, async () => ({ content: "t" }))).resolves.toMatchObject({ ok: true });
  });
});

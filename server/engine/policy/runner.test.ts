import { describe, expect, it } from "vitest";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { createWorld } from "../testing/policy-fixtures";
import { memoryPolicyLedger } from "./policy-ledger";
import { runPolicy } from "./runner";

describe("runPolicy, the entry point (002 section 9)", () => {
  it("refuses a root policy that is not registered, or root input that fails its schema, naming the field", async () => {
    const world = createWorld();
    await expect(runPolicy("missing", {}, { registry: world.registry, env: world })).rejects.toThrow('There is no policy "missing" in the registry');
    await expect(runPolicy("planner", { lookups: "two" }, { registry: world.registry, env: world })).rejects.toThrow("input.lookups must be integer");
  });

  it("returns the root's ledger, the steps it returned and the trace of every call, and gives the root no call identity", async () => {
    const world = createWorld();
    world.registry.register({
      name: "identity",
      description: "reports its identity",
      inputSchema: { type: "object" },
      run: async (_input, ctx) => ({ identity: ctx.identity === undefined ? "none" : ctx.identity.key }),
    });
    const calls = new MemoryCallLedger();
    const root = await runPolicy("identity", {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger("r", calls) });
    expect(root.steps.map((step) => step.payload)).toEqual([{ identity: "none" }]);
    expect(root.trace).toEqual([]);

    const run = await runPolicy("orchestrator", {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger("o", calls) });
    expect(run.steps).toEqual([run.ledger.at(-1)]);
    expect(run.trace.map((call) => `${call.scope} ${call.callId} ${call.via}`)).toEqual([
      "o/1/planner 1/think call",
      "o/1/planner 2/lookup invoke",
      "o/1/planner 3/think call",
      "o/1/planner 4/lookup invoke",
      "o/1/planner 5/think call",
      "o 1/planner call",
      "o/2/summarize 1/think call",
      "o/2/summarize 2/think call",
      "o 2/summarize call",
    ]);
  });
});

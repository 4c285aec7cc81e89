import { describe, expect, it } from "vitest";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { crashingCallLedger, type CrashMode } from "../testing/crashing-call-ledger";
import { createWorld, shapeOf, type World } from "../testing/policy-fixtures";
import { memoryPolicyLedger } from "./policy-ledger";
import { runPolicy } from "./runner";

function run(world: World, calls: MemoryCallLedger | ReturnType<typeof crashingCallLedger>, signal?: AbortSignal) {
  return runPolicy("orchestrator", {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger("run", calls), signal });
}

const LEAVES = 7; // the planner's 3 thinks and 2 lookups, the summary's 2 thinks

describe("replay of a policy run from its ledger (002 section 7.2)", () => {
  it("runs every leaf once, and a re-run against the same ledger runs none", async () => {
    const world = createWorld();
    const calls = new MemoryCallLedger();
    const first = await run(world, calls);
    expect(world.performed.map((p) => p.policy)).toEqual(["think", "lookup", "think", "lookup", "think", "think", "think"]);
    expect(world.subLedgerAtStart).toEqual([0]);

    const again = await run(world, calls);
    expect(world.performed).toHaveLength(LEAVES);
    expect(again.trace.every((call) => call.replayed)).toBe(true);
    expect(again.ledger.steps).toEqual(first.ledger.steps);
    expect(again.steps).toEqual(first.steps);
  });

  // Every call of the run (the planner's and summary's own calls included) is a crash point.
  const reference = createWorld();
  const probe = new MemoryCallLedger();
  const points = (async () => {
    await run(reference, probe);
    return probe.steps.filter((step) => step.type === "action_call").length;
  })();

  it.each<CrashMode>(["before-perform", "after-perform"])("after a crash at any call (%s), the re-run finishes the same, repeating nothing recorded", async (mode) => {
    const count = await points;
    expect(count).toBe(LEAVES + 2);
    const expected = shapeOf((await run(createWorld(), new MemoryCallLedger())).ledger);
    for (let at = 1; at <= count; at++) {
      const world = createWorld();
      const calls = new MemoryCallLedger();
      const controller = new AbortController();
      await expect(run(world, crashingCallLedger(calls, { at, mode, run: controller }), controller.signal)).rejects.toThrow(`worker killed at call ${at}`);

      const resumed = await run(world, calls);
      expect(shapeOf(resumed.ledger), `crash at call ${at}`).toEqual(expected);
      const keys = world.performed.map((p) => p.idempotencyKey);
      expect(new Set(keys).size, `crash at call ${at}: each leaf has its own key`).toBe(LEAVES);
      // Only the call that died after performing and before its record may run twice, and under the same key.
      const repeats = keys.length - LEAVES;
      const crashed = String(probe.steps.filter((step) => step.type === "action_call")[at - 1]?.payload.policy);
      const leafDiedAfterPerforming = mode === "after-perform" && crashed !== "planner" && crashed !== "summarize";
      expect(repeats, `crash at call ${at} (${crashed})`).toBe(leafDiedAfterPerforming ? 1 : 0);
      // A third run finds everything recorded.
      const settled = world.performed.length;
      await run(world, calls);
      expect(world.performed.length, `crash at call ${at}`).toBe(settled);
    }
  });

  it("replays a recorded error as the same error, without calling the failing tool again", async () => {
    const world = createWorld();
    const calls = new MemoryCallLedger();
    world.registry.register({
      name: "asks-flaky",
      description: "calls flaky",
      inputSchema: { type: "object" },
      actions: ["flaky"],
      policy: async (_action, ctx) => ctx.call({ policy: "flaky", payload: {}, actions: new Set() }),
    });
    const options = { registry: world.registry, env: world, ledger: memoryPolicyLedger("run", calls) };
    const first = await runPolicy("asks-flaky", {}, options);
    const again = await runPolicy("asks-flaky", {}, options);
    expect(first.ledger.at(-1)?.payload).toEqual({ error: true, code: "NOT_FOUND", message: "Nothing there. Did you mean lookup?" });
    expect(again.ledger.steps).toEqual(first.ledger.steps);
    expect(world.performed.filter((p) => p.policy === "flaky")).toHaveLength(1);
  });
});

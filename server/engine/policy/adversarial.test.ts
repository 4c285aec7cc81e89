import { describe, expect, it } from "vitest";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { createWorld } from "../testing/policy-fixtures";
import { createAction } from "./action";
import { invokeAction, loopWrapper } from "./decorators";
import { MAX_INPUT_BYTES } from "./input-bounds";
import { PolicyInvariantError } from "./policy-errors";
import { memoryPolicyLedger } from "./policy-ledger";
import { runPolicy } from "./runner";
import { actionCallStep } from "./step";

describe("a policy run cannot be made endless or unbounded", () => {
  it("answers a call below the deepest nesting with CALL_TOO_DEEP, so a policy calling itself ends", async () => {
    const world = createWorld();
    let entered = 0;
    world.registry.register({
      name: "recurse",
      description: "calls itself for ever",
      inputSchema: { type: "object" },
      actions: ["recurse"],
      policy: async (action, ctx) => {
        entered += 1;
        return ctx.call(createAction("recurse", {}, action.actions));
      },
    });
    const run = await runPolicy("recurse", {}, { registry: world.registry, env: world, limits: { maxDepth: 5 } });
    expect(entered).toBe(6); // the root and five nested levels
    expect(run.steps.at(-1)?.payload).toEqual({ error: true, code: "CALL_TOO_DEEP", message: "Not run: policies nest at most 5 calls deep, and recurse is at the limit." });
  });

  it("stops a policy that calls in an endless loop at the run's call limit, recording nothing past it", async () => {
    const world = createWorld();
    const calls = new MemoryCallLedger();
    world.registry.register({
      name: "spinner",
      description: "ignores every answer and asks again",
      inputSchema: { type: "object" },
      policy: async (_action, ctx) => {
        for (;;) await ctx.call(createAction("think"));
      },
    });
    const running = runPolicy("spinner", {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger("spin", calls), actions: ["think"], limits: { maxCalls: 50 } });
    await expect(running).rejects.toThrow(new PolicyInvariantError("The run made 50 calls, its limit: a policy calls without end"));
    expect(world.performed).toHaveLength(50);
    expect(calls.steps.filter((step) => step.type === "action_result")).toHaveLength(50);
  });

  it.each([
    [{ maxDepth: 0 }, "maxDepth must be a whole number from 1 to 64"],
    [{ maxCalls: 2_000_000 }, "maxCalls must be a whole number from 1 to 1000000"],
  ])("refuses run limits %j", async (limits, message) => {
    const world = createWorld();
    await expect(runPolicy("planner", {}, { registry: world.registry, env: world, limits })).rejects.toThrow(message);
  });

  it("refuses a model's multi-megabyte arguments as data, keeping only their size in the ledger", async () => {
    const world = createWorld();
    const calls = new MemoryCallLedger();
    const huge = JSON.stringify({ q: "x".repeat(2 * MAX_INPUT_BYTES) });
    world.registry.register({
      name: "flooder",
      description: "asks with a huge argument once",
      inputSchema: { type: "object" },
      policy: async (_action, ctx) => (ctx.getLedger().length === 0 ? [actionCallStep("flooder", "lookup", huge, "call_1")] : []),
    });
    const run = await runPolicy("flooder", {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger("f", calls), actions: ["lookup"], decorators: [loopWrapper(3), invokeAction()] });
    const result = run.ledger.steps.find((step) => step.type === "action_result");
    expect(result?.payload).toEqual({ error: true, code: "INVALID_ARGUMENTS", message: `The arguments of lookup are ${huge.length} bytes, more than the ${MAX_INPUT_BYTES} allowed.` });
    expect(calls.steps[0]?.payload).toMatchObject({ policy: "lookup", payload: { argumentsBytes: huge.length } });
    expect(JSON.stringify(calls.steps).length).toBeLessThan(10_000);
    expect(world.performed).toEqual([]);
  });

  it("refuses arguments nested past the bound from a model's text, and reads a hostile tool name safely", async () => {
    const world = createWorld();
    const deep = `{"q": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const name = `../../${"é".repeat(500)}`;
    world.registry.register({
      name: "hostile",
      description: "asks with deep arguments and a made-up tool",
      inputSchema: { type: "object" },
      policy: async (_action, ctx) => (ctx.getLedger().length === 0 ? [actionCallStep("hostile", "lookup", deep, "a"), actionCallStep("hostile", name, "{}", "b")] : []),
    });
    const calls = new MemoryCallLedger();
    const run = await runPolicy("hostile", {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger("h", calls), actions: ["lookup"], decorators: [loopWrapper(2), invokeAction()] });
    const results = run.ledger.steps.filter((step) => step.type === "action_result").map((step) => step.payload.code);
    expect(results).toEqual(["INVALID_ARGUMENTS", "UNKNOWN_TOOL"]);
    expect(calls.steps.map((step) => step.key)).toEqual(["h/1/lookup", "h/1/lookup", `h/2/______${"_".repeat(58)}`, `h/2/______${"_".repeat(58)}`]);
  });
});

import { describe, expect, it } from "vitest";
import { StepConfigurationError } from "../errors";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { createWorld, shapeOf, type World } from "../testing/policy-fixtures";
import { createAction } from "./action";
import { invokeAction, loopWrapper } from "./decorators";
import { PolicyInvariantError } from "./policy-errors";
import { memoryPolicyLedger } from "./policy-ledger";
import type { Policy } from "./policy";
import { runPolicy } from "./runner";
import { actionCallStep, textStep } from "./step";

function runIn(world: World, name: string, policy: Policy<World>, options: { actions?: string[]; calls?: MemoryCallLedger; signal?: AbortSignal } = {}) {
  world.registry.register({ name, description: name, inputSchema: { type: "object" }, policy });
  return runPolicy(name, {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger(name, options.calls), actions: options.actions ?? [], signal: options.signal });
}

describe("ctx.call and the per-policy ledger", () => {
  it("appends the call and its result to the caller's ledger, the result caused by the call", async () => {
    const world = createWorld();
    const run = await runIn(world, "root", async (_action, ctx) => ctx.call(createAction("lookup", { q: "seattle" })), { actions: ["lookup"] });
    const [call, result] = run.ledger.steps;
    expect(call).toMatchObject({ id: "root#1", actor: "root", type: "action_call", payload: { policy: "lookup", payload: { q: "seattle" } } });
    expect(result).toMatchObject({ id: "root#2", actor: "lookup", type: "action_result", payload: { answer: "SEATTLE" }, cause: "root#1" });
    expect(run.steps).toEqual([result]);
  });

  it("gives a sub-policy a fresh, empty ledger of its own, and nests them under their call's scope", async () => {
    const world = createWorld();
    const calls = new MemoryCallLedger();
    const run = await runPolicy("orchestrator", {}, { registry: world.registry, env: world, ledger: memoryPolicyLedger("run", calls) });
    expect(world.subLedgerAtStart).toEqual([0]);
    // The parent sees the sub-policies' returned steps, never their inner calls.
    expect(shapeOf(run.ledger)).toEqual([
      "action_call:orchestrator→planner",
      ...["text:planner", "action_call:planner→lookup", "action_result:lookup"],
      ...["text:planner", "action_call:planner→lookup", "action_result:lookup"],
      "text:planner",
      "action_call:orchestrator→summarize",
      "text:summarize",
      "text:orchestrator",
    ]);
    const keys = calls.steps.filter((step) => step.type === "action_result").map((step) => step.key);
    expect(keys).toEqual([
      "run/1/planner/1/think",
      "run/1/planner/2/lookup",
      "run/1/planner/3/think",
      "run/1/planner/4/lookup",
      "run/1/planner/5/think",
      "run/1/planner",
      "run/2/summarize/1/think",
      "run/2/summarize/2/think",
      "run/2/summarize",
    ]);
  });

  it("refuses as data a call to a policy the caller may not call, or that does not exist", async () => {
    const world = createWorld();
    const run = await runIn(world, "root", async (_action, ctx) => [...(await ctx.call(createAction("lookup", { q: "x" }))), ...(await ctx.call(createAction("nope")))], { actions: ["think"] });
    expect(run.steps.map((step) => step.payload)).toEqual([
      { error: true, code: "UNKNOWN_TOOL", message: 'There is no tool "lookup". Available: think' },
      { error: true, code: "UNKNOWN_TOOL", message: 'There is no tool "nope". Available: think' },
    ]);
    expect(world.performed).toEqual([]);
  });
});

describe("errors are data the policy sees", () => {
  it("keeps a tool's CallFailedError as its result, and any other error as TOOL_FAILED", async () => {
    const world = createWorld();
    const run = await runIn(world, "root", async (_action, ctx) => [...(await ctx.call(createAction("flaky"))), ...(await ctx.call(createAction("broken")))], { actions: ["flaky", "broken"] });
    expect(run.steps.map((step) => step.payload)).toEqual([
      { error: true, code: "NOT_FOUND", message: "Nothing there. Did you mean lookup?" },
      { error: true, code: "TOOL_FAILED", message: "broken failed: disk full" },
    ]);
  });

  it("refuses input that fails the schema with a message naming the field, without running the tool", async () => {
    const world = createWorld();
    const run = await runIn(world, "root", async (_action, ctx) => [...(await ctx.call(createAction("lookup", { q: 42 }))), ...(await ctx.call(createAction("lookup", { query: "x" })))], { actions: ["lookup"] });
    expect(run.steps.map((step) => step.payload)).toEqual([
      { error: true, code: "INVALID_ARGUMENTS", message: "The arguments of lookup do not match its schema: input.q must be string" },
      {
        error: true,
        code: "INVALID_ARGUMENTS",
        message: 'The arguments of lookup do not match its schema: input is missing the required field "q"; input has an unknown field "query"',
      },
    ]);
    expect(world.performed).toEqual([]);
  });

  it("lets a configuration error, a broken invariant and an abort stop the run instead", async () => {
    for (const thrown of [new StepConfigurationError("no tests to run"), new PolicyInvariantError("two answers")]) {
      const world = createWorld();
      world.registry.register({ name: "bad", description: "bad", inputSchema: { type: "object" }, run: () => Promise.reject(thrown) });
      await expect(runIn(world, "root", async (_action, ctx) => ctx.call(createAction("bad")), { actions: ["bad"] })).rejects.toBe(thrown);
    }
    const controller = new AbortController();
    const world = createWorld();
    world.registry.register({
      name: "cancelled",
      description: "the run is cancelled while it works",
      inputSchema: { type: "object" },
      run: async () => {
        controller.abort(new Error("run cancelled"));
        throw new Error("interrupted");
      },
    });
    await expect(runIn(world, "root", async (_action, ctx) => ctx.call(createAction("cancelled")), { actions: ["cancelled"], signal: controller.signal })).rejects.toThrow("interrupted");
  });
});

describe("decorators", () => {
  it("invoke_action runs the model's calls, each answered with a result caused by it; loop_wrapper repeats until no calls", async () => {
    const world = createWorld();
    const run = await runPolicy("planner", { lookups: 2 }, { registry: world.registry, env: world, actions: ["think", "lookup"], decorators: [loopWrapper(5), invokeAction()] });
    expect(run.ledger.steps.filter((step) => step.type === "action_result" && step.actor === "lookup").map((step) => step.payload)).toEqual([{ answer: "Q0" }, { answer: "Q1" }]);
    for (const result of run.ledger.steps.filter((step) => step.type === "action_result")) {
      expect(run.ledger.steps.find((step) => step.id === result.cause)?.type).toBe("action_call");
    }
    expect(run.ledger.at(-1)).toMatchObject({ type: "text", payload: { text: "done after 2 lookups" } });
  });

  it("invoke_action refuses a call to an internal policy or one outside the allowed actions, and answers calls past its bound unrun", async () => {
    const world = createWorld();
    world.registry.register({ name: "secret", description: "internal", internal: true, inputSchema: { type: "object" }, run: async () => ({ leaked: true }) });
    const wants = ["secret", "summarize", "lookup", "lookup", "lookup"];
    world.registry.register({
      name: "chooser",
      description: "asks for five calls on its first turn",
      inputSchema: { type: "object" },
      policy: async (_action, ctx) => (ctx.getLedger().length === 0 ? wants.map((name, index) => actionCallStep("chooser", name, '{"q": "x"}', `call_${index}`)) : []),
    });
    const invoked = await runPolicy("chooser", {}, { registry: world.registry, env: world, actions: ["secret", "lookup"], decorators: [invokeAction({ maxCallsPerTurn: 3 })] });
    expect(invoked.ledger.steps.filter((step) => step.type === "action_result").map((step) => step.payload.code ?? "ok")).toEqual(["UNKNOWN_TOOL", "UNKNOWN_TOOL", "ok", "TOO_MANY_TOOL_CALLS", "TOO_MANY_TOOL_CALLS"]);
    expect(world.performed.map((p) => p.policy)).toEqual(["lookup"]);
  });

  it("loop_wrapper cuts a policy that calls for ever at max_turns, with a MAX_TURNS error step", async () => {
    const world = createWorld();
    let turns = 0;
    world.registry.register({
      name: "forever",
      description: "never stops asking",
      inputSchema: { type: "object" },
      policy: async () => {
        turns += 1;
        return [textStep("forever", "once more"), actionCallStep("forever", "think", {})];
      },
    });
    const run = await runPolicy("forever", {}, { registry: world.registry, env: world, actions: ["think"], decorators: [loopWrapper(4), invokeAction()] });
    expect(turns).toBe(4);
    expect(world.performed).toHaveLength(4);
    expect(run.ledger.at(-1)?.payload).toEqual({ error: true, code: "MAX_TURNS", message: "forever was still making calls after 4 turns and was stopped" });
  });

  it.each([0, -1, 1.5, 101, Number.NaN])("refuses loop_wrapper(%s): max_turns is bounded", (max) => {
    expect(() => loopWrapper(max)).toThrow(/max_turns must be a whole number from 1 to 100/);
  });

  it("notes what the policy said before its calls in the durable ledger, once, and not its final answer", async () => {
    const world = createWorld();
    const calls = new MemoryCallLedger();
    const options = { registry: world.registry, env: world, ledger: memoryPolicyLedger("p", calls), actions: ["think", "lookup"], decorators: [loopWrapper(5), invokeAction()] };
    await runPolicy("planner", { lookups: 1 }, options);
    await runPolicy("planner", { lookups: 1 }, options);
    expect(calls.steps.filter((step) => step.type === "text").map((step) => [step.key, step.payload.text])).toEqual([["p/text-3", "looking up q0"]]);
  });
});

describe("steps, ledgers and actions are immutable", () => {
  it("freezes steps deeply, and appending makes a new ledger", async () => {
    const world = createWorld();
    const run = await runIn(world, "root", async (_action, ctx) => ctx.call(createAction("lookup", { q: "x" })), { actions: ["lookup"] });
    const step = run.ledger.steps[1]!;
    expect(() => ((step.payload as { answer: string }).answer = "changed")).toThrow(TypeError);
    expect(() => (run.ledger.steps as unknown as unknown[]).push(step)).toThrow(TypeError);
    const longer = run.ledger.append(textStep("user", "more"));
    expect([run.ledger.length, longer.length]).toEqual([2, 3]);
    expect(longer.at(-1)?.id).toBe("root#3");
  });

  it("copies an action's payload and refuses to grow its allowed actions", () => {
    const payload = { city: "Seattle" };
    const action = createAction("weather", payload, ["geocode"]);
    payload.city = "Paris";
    expect(action.payload.city).toBe("Seattle");
    expect(() => (action.actions as Set<string>).add("delete_everything")).toThrow("cannot be changed");
    expect([...action.actions]).toEqual(["geocode"]);
  });
});

/**
 * A small world of policies for the runtime's tests: a model-like planner that decides from its
 * own ledger, leaf tools whose every performance is counted (with the idempotency key it got),
 * and an orchestrator that calls the planner under the decorators and a nested sub-policy.
 */
import { CallFailedError, type JsonObject } from "../ports/call-ledger";
import { createAction } from "../policy/action";
import { invokeAction, loopWrapper } from "../policy/decorators";
import { PolicyRegistry, type PolicyEntry } from "../policy/registry";
import { actionCallStep, callOf, textStep, type Step } from "../policy/step";

export interface Performance {
  readonly policy: string;
  readonly idempotencyKey: string | undefined;
}

export interface World {
  readonly registry: PolicyRegistry<World>;
  /** Every time a leaf really ran (a replayed call does not add one). */
  readonly performed: Performance[];
  /** What the sub-policy saw of its ledger when it started (it must be empty). */
  readonly subLedgerAtStart: number[];
}

const objectSchema = (properties: JsonObject = {}, required: string[] = []): JsonObject => ({ type: "object", properties, required, additionalProperties: false });

const results = (ledger: Iterable<Step>, policy: string) => {
  const calls = new Map<string, string>();
  const found: Step[] = [];
  for (const step of ledger) {
    if (step.type === "action_call") calls.set(step.id, callOf(step).policy);
    if (step.type === "action_result" && step.cause !== undefined && calls.get(step.cause) === policy) found.push(step);
  }
  return found;
};

export function createWorld(): World {
  const registry = new PolicyRegistry<World>();
  const world: World = { registry, performed: [], subLedgerAtStart: [] };
  const leaf = (name: string, inputSchema: JsonObject, run: (input: JsonObject) => JsonObject): PolicyEntry<World> => ({
    name,
    description: `The ${name} tool.`,
    inputSchema,
    run: async (input, ctx) => {
      ctx.env.performed.push({ policy: name, idempotencyKey: ctx.identity?.idempotencyKey });
      return run(input);
    },
  });

  registry.register(leaf("think", objectSchema(), () => ({ thought: world.performed.length })));
  registry.register(leaf("lookup", objectSchema({ q: { type: "string" } }, ["q"]), (input) => ({ answer: String(input.q).toUpperCase() })));
  registry.register(
    leaf("flaky", objectSchema(), () => {
      throw new CallFailedError("NOT_FOUND", "Nothing there. Did you mean lookup?");
    }),
  );
  registry.register(
    leaf("broken", objectSchema(), () => {
      throw new Error("disk full");
    }),
  );
  // The model-like policy: one recorded "think" per turn, then a decision read from its own ledger.
  registry.register({
    name: "planner",
    description: "Decides which lookups to make.",
    inputSchema: objectSchema({ lookups: { type: "integer" } }),
    policy: async (action, ctx) => {
      await ctx.call(createAction("think"));
      const done = results(ctx.getLedger(), "lookup").length;
      const wanted = typeof action.payload.lookups === "number" ? action.payload.lookups : 2;
      if (done >= wanted) return [textStep("planner", `done after ${done} lookups`)];
      return [textStep("planner", `looking up q${done}`), actionCallStep("planner", "lookup", { q: `q${done}` }, `ref-${done}`)];
    },
  });
  registry.register({
    name: "summarize",
    description: "A nested sub-policy that thinks twice.",
    inputSchema: objectSchema({ topic: { type: "string" } }),
    actions: ["think"],
    policy: async (_action, ctx) => {
      ctx.env.subLedgerAtStart.push(ctx.getLedger().length);
      await ctx.call(createAction("think"));
      await ctx.call(createAction("think"));
      return [textStep("summarize", "summarized")];
    },
  });
  registry.register({
    name: "orchestrator",
    description: "Runs the planner in a loop, then a nested summary.",
    inputSchema: objectSchema(),
    actions: ["planner", "summarize"],
    policy: async (_action, ctx) => {
      const planned = await ctx.call(createAction("planner", { lookups: 2 }, ["think", "lookup"]), [loopWrapper(5), invokeAction()]);
      const summary = await ctx.call(createAction("summarize", { topic: "lookups" }, ["think"]));
      return [textStep("orchestrator", `${planned.length} planner steps; ${summary.length} summary steps`)];
    },
  });
  return world;
}

/** The shape of a ledger without its ids: what a replay must reproduce. */
export const shapeOf = (steps: Iterable<Step>) => [...steps].map((step) => `${step.type}:${step.actor}${step.type === "action_call" ? `→${callOf(step).policy}` : ""}`);

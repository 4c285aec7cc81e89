import { describe, expect, it } from "vitest";
import { CallFailedError, type JsonObject } from "../ports/call-ledger";
import { MemoryCallLedger } from "../run/memory-call-ledger";
import { invokeAction, loopWrapper } from "./decorators";
import { memoryPolicyLedger } from "./policy-ledger";
import { PolicyRegistry } from "./registry";
import { runPolicy } from "./runner";
import { actionCallStep, textStep, type Step } from "./step";
import { isToolsPending, MAX_WAIT_MS, ToolsPendingError } from "./waiting";

/**
 * A model-like chooser: on its first turn it asks a person and an outside system and looks one
 * thing up, all at once; once it has results it answers with what they said.
 */
function world() {
  const entered: string[] = [];
  const registry = new PolicyRegistry();
  const waiting = (name: string, kind: "person" | "external") =>
    registry.register({
      name,
      description: name,
      inputSchema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
      run: async (input, ctx) => {
        entered.push(name);
        throw new ToolsPendingError([{ key: ctx.identity!.key, tool: name, kind, stepName: "implement", attempt: 1, input, deadlineAfterMs: 60_000, question: String(input.question) }]);
      },
    });
  waiting("ask_owner", "person");
  waiting("deploy_preview", "external");
  registry.register({
    name: "lookup",
    description: "lookup",
    inputSchema: { type: "object" },
    run: async () => {
      entered.push("lookup");
      return { found: "a fact" };
    },
  });
  registry.register({
    name: "flaky",
    description: "fails",
    inputSchema: { type: "object" },
    run: async () => {
      throw new CallFailedError("BROKEN", "flaky is down");
    },
  });
  registry.register({
    name: "chooser",
    description: "chooses",
    inputSchema: { type: "object" },
    actions: ["ask_owner", "deploy_preview", "lookup", "flaky"],
    policy: async (_action, ctx) => {
      const results = ctx.getLedger().steps.filter((step) => step.type === "action_result");
      if (results.length === 0) {
        return ctx.append([
          textStep("chooser", "I need three things"),
          actionCallStep("chooser", "ask_owner", { question: "Which port?" }),
          actionCallStep("chooser", "lookup", {}),
          actionCallStep("chooser", "deploy_preview", { question: "Deploy it" }),
          actionCallStep("chooser", "flaky", {}),
        ]);
      }
      return ctx.append([textStep("chooser", JSON.stringify(results.map((step: Step) => step.payload)))]);
    },
  });
  return { registry, entered };
}

const run = (registry: PolicyRegistry, calls: MemoryCallLedger) =>
  runPolicy("chooser", {}, { registry, env: undefined, ledger: memoryPolicyLedger("implement/attempt-1", calls), decorators: [loopWrapper(3), invokeAction()] });

describe("tools that wait (003 section 3.3) in the policy runtime", () => {
  it("a model turn's waits are gathered into one suspension; the other calls of the turn run and are recorded", async () => {
    const { registry, entered } = world();
    const calls = new MemoryCallLedger();
    const error = await run(registry, calls).catch((caught: unknown) => caught);
    expect(isToolsPending(error)).toBe(true);
    const waits = (error as ToolsPendingError).waits;
    expect(waits.map((wait) => `${wait.tool}:${wait.kind}:${wait.question}`)).toEqual(["ask_owner:person:Which port?", "deploy_preview:external:Deploy it"]);
    expect(new Set(waits.map((wait) => wait.key)).size).toBe(2);
    expect(entered).toEqual(["ask_owner", "lookup", "deploy_preview"]);
    // The waiting calls have their action_call and no result; the others have both.
    const results = calls.steps.filter((step) => step.type === "action_result").map((step) => step.key);
    for (const wait of waits) expect(results).not.toContain(wait.key);
    expect(results.filter((key) => key?.endsWith("/lookup") || key?.endsWith("/flaky"))).toHaveLength(2);
  });

  it("resumes once every wait has its report: replay runs nothing again and the policy reads each result, a timeout as data", async () => {
    const { registry, entered } = world();
    const calls = new MemoryCallLedger();
    const { waits } = (await run(registry, calls).catch((caught: unknown) => caught)) as ToolsPendingError;
    expect(calls.report(waits[0]!.key, { port: 8080 })).toBe(true);
    // Still one out: the same suspension again, on the one left, and nothing re-run.
    const again = (await run(registry, calls).catch((caught: unknown) => caught)) as ToolsPendingError;
    expect(again.waits.map((wait) => wait.tool)).toEqual(["deploy_preview"]);
    expect(again.waits[0]!.key).toBe(waits[1]!.key);
    expect(calls.report(waits[1]!.key, { error: true, code: "TIMEOUT", message: "no result before its deadline" })).toBe(true);
    expect(calls.report(waits[1]!.key, { late: true })).toBe(false);
    const done = await run(registry, calls);
    const said = JSON.parse(String(done.steps.at(-1)?.payload.text)) as JsonObject[];
    expect(said).toEqual([{ port: 8080 }, { found: "a fact" }, { error: true, code: "TIMEOUT", message: "no result before its deadline" }, { error: true, code: "BROKEN", message: "flaky is down" }]);
    expect(entered.filter((name) => name === "lookup")).toHaveLength(1);
    expect(entered.filter((name) => name === "ask_owner")).toHaveLength(1);
    expect(entered.filter((name) => name === "deploy_preview")).toHaveLength(2);
  });

  it("refuses a wait outside its bounds when it is made", () => {
    const base = { key: "k", tool: "t", kind: "external" as const, stepName: "s", attempt: 1, input: {} };
    expect(() => new ToolsPendingError([{ ...base, deadlineAfterMs: 10 }])).toThrow(/from 1000 ms/);
    expect(() => new ToolsPendingError([{ ...base, deadlineAfterMs: MAX_WAIT_MS + 1 }])).toThrow(RangeError);
    expect(() => new ToolsPendingError([{ ...base, deadlineAfterMs: 1.5e3 + 0.5 }])).toThrow(RangeError);
  });
});

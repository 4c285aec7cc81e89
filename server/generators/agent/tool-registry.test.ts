import { describe, expect, it } from "vitest";
import { createAction, isEngineError, memoryPolicyLedger, MemoryCallLedger, runPolicy, StepConfigurationError, type PolicyEntry } from "../../engine";
import { checkDraftTool } from "./builtin-tools";
import { createAgentRegistry, toolEntry, type AgentEnv, type ToolContext } from "./tool-registry";

/** A policy that calls check_draft once, as the agent's invoke_action does for a model. */
const caller: PolicyEntry<AgentEnv> = {
  name: "caller",
  description: "calls check_draft",
  inputSchema: { type: "object" },
  policy: async (_action, ctx) => {
    await ctx.call(createAction("check_draft", { content: "x" }));
    return [];
  },
};

function callCheckDraft(checkDraft: ToolContext["checkDraft"]) {
  const registry = createAgentRegistry().register(toolEntry(checkDraftTool)).register(caller);
  const calls = new MemoryCallLedger();
  const env = { tools: { specification: "s", dependencies: {}, checkDraft, stepName: "write", attempt: 1 }, chat: { model: { complete: () => Promise.reject(new Error("no model here")) }, modelName: "m" } };
  return { calls, run: runPolicy("caller", {}, { registry, env, ledger: memoryPolicyLedger("step", calls), actions: ["check_draft"] }) };
}

describe("a tool call the model made", () => {
  it("hands a tool's own failure back as a TOOL_FAILED result, recorded as data", async () => {
    const { run, calls } = callCheckDraft(async () => Promise.reject(new Error("disk full")));
    const { ledger } = await run;
    expect(ledger.at(-1)?.payload).toEqual({ error: true, code: "TOOL_FAILED", message: "check_draft failed: disk full" });
    expect(calls.steps.at(-1)).toMatchObject({ key: "step/1/check_draft", type: "action_result", payload: { code: "TOOL_FAILED" } });
  });

  it("lets a guard configuration error through, so the step fails instead of the model being told", async () => {
    const { run, calls } = callCheckDraft(async () => Promise.reject(new StepConfigurationError("the tdd guard takes its tests from a dependency named test")));
    const error = await run.then(
      () => expect.fail("expected the configuration error"),
      (caught: unknown) => caught,
    );
    expect(isEngineError(error, "STEP_CONFIGURATION")).toBe(true);
    expect(calls.steps.filter((step) => step.type === "action_result")).toEqual([]);
  });
});

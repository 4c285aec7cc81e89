import { describe, expect, it } from "vitest";
import { createAction, MemoryCallLedger, policyLedgerOn, runPolicy, type JsonObject, type PolicyEntry, type Step } from "../../../engine";
import { isToolsPending, ToolsPendingError, type ToolWaitRequest } from "../../../engine/policy/waiting";
import { createAgentRegistry, toolEntry, type AgentEnv } from "../../../generators/agent/tool-registry";
import type { ExternalToolDeclaration, PersonToolDeclaration, WorkflowToolDeclaration } from "../../definition/tools/tool-types";
import { DEFAULT_PERSON_INPUT_SCHEMA, DEFAULT_WORKFLOW_INPUT_SCHEMA } from "../../definition/tools/normalize-tools";
import { waitingTool } from "./waiting-tool";

const ANSWER_FORM = { type: "object", properties: { answer: { type: "string" }, approved: { type: "boolean" } }, required: ["answer"] };
const BUILD_REPORT = { type: "object", properties: { passed: { type: "boolean" } }, required: ["passed"] };
const person: PersonToolDeclaration = { kind: "person", description: "Ask the owner", input_schema: DEFAULT_PERSON_INPUT_SCHEMA, answer_schema: ANSWER_FORM, timeout: "30m" };
const subWorkflow: WorkflowToolDeclaration = { kind: "workflow", workflow: "summarizer", description: "Summarize", input_schema: DEFAULT_WORKFLOW_INPUT_SCHEMA, timeout: "2h" };
const external: ExternalToolDeclaration = {
  kind: "external",
  description: "Run CI",
  input_schema: { type: "object", properties: { branch: { type: "string", pattern: "^[a-z0-9/-]+$" } }, required: ["branch"], additionalProperties: false },
  result_schema: BUILD_REPORT,
  timeout: "1d",
};

const SCOPE = "write/attempt-2";
const env: AgentEnv = {
  tools: { specification: "the run's task", dependencies: {}, stepName: "write", attempt: 2 },
  chat: { model: { complete: () => Promise.reject(new Error("no model in this test")) }, modelName: "none" },
};

/** A root policy that calls one tool with the given input, as invoke_action would, on the policy runtime. */
function runCalling(tool: string, entry: PolicyEntry<AgentEnv>, input: JsonObject, calls: MemoryCallLedger): Promise<readonly Step[]> {
  const registry = createAgentRegistry().register(entry);
  registry.register({ name: "root", description: "calls the tool", inputSchema: { type: "object" }, policy: (_action, ctx) => ctx.call(createAction(tool, input)) });
  return runPolicy("root", {}, { registry, env, ledger: policyLedgerOn(calls, SCOPE), actions: [tool] }).then((run) => run.steps);
}

async function pendingOf(run: Promise<unknown>): Promise<readonly ToolWaitRequest[]> {
  const error = await run.then(
    () => expect.fail("expected the call to wait"),
    (thrown: unknown) => thrown,
  );
  expect(isToolsPending(error)).toBe(true);
  expect(error).toBeInstanceOf(ToolsPendingError);
  return (error as ToolsPendingError).waits;
}

describe("waiting tools on the policy runtime", () => {
  it("a person tool throws ToolsPendingError with the call's ledger key, the question and the answer form; the ledger holds the call and no result", async () => {
    const calls = new MemoryCallLedger();
    const waits = await pendingOf(runCalling("ask_owner", toolEntry(waitingTool("ask_owner", person)), { question: "Ship on Friday?" }, calls));
    expect(waits).toEqual([
      {
        key: `${SCOPE}/1/ask_owner`,
        tool: "ask_owner",
        kind: "person",
        stepName: "write",
        attempt: 2,
        input: { question: "Ship on Friday?" },
        deadlineAfterMs: 30 * 60_000,
        question: "Ship on Friday?",
        resultSchema: ANSWER_FORM,
      },
    ]);
    expect(calls.steps.map((step) => `${step.type}:${step.key}`)).toEqual([`action_call:${SCOPE}/1/ask_owner`]);
  });

  it("a workflow tool names the sub-workflow and takes the sub-run's specification from the input", async () => {
    const waits = await pendingOf(runCalling("summarize", toolEntry(waitingTool("summarize", subWorkflow)), { specification: "Summarize the README" }, new MemoryCallLedger()));
    expect(waits).toEqual([
      { key: `${SCOPE}/1/summarize`, tool: "summarize", kind: "workflow", stepName: "write", attempt: 2, input: { specification: "Summarize the README" }, deadlineAfterMs: 2 * 3_600_000, workflow: "summarizer", specification: "Summarize the README" },
    ]);
  });

  it("an external tool carries the result schema its report is checked against", async () => {
    const waits = await pendingOf(runCalling("ci_build", toolEntry(waitingTool("ci_build", external)), { branch: "feature/x" }, new MemoryCallLedger()));
    expect(waits).toEqual([
      { key: `${SCOPE}/1/ci_build`, tool: "ci_build", kind: "external", stepName: "write", attempt: 2, input: { branch: "feature/x" }, deadlineAfterMs: 86_400_000, resultSchema: BUILD_REPORT },
    ]);
  });

  it("input that does not match the tool's schema is the model's error as data, and nothing waits", async () => {
    const calls = new MemoryCallLedger();
    const steps = await runCalling("ask_owner", toolEntry(waitingTool("ask_owner", person)), { question: 42 }, calls);
    expect(steps.at(-1)?.payload).toMatchObject({ error: true, code: "INVALID_ARGUMENTS", message: expect.stringContaining("input.question must be string") });
    const badPattern = await runCalling("ci_build", toolEntry(waitingTool("ci_build", external)), { branch: `${"a".repeat(50_000)}!` }, new MemoryCallLedger());
    expect(badPattern.at(-1)?.payload).toMatchObject({ error: true, code: "INVALID_ARGUMENTS", message: expect.stringContaining('input.branch must match pattern') });
    const huge = await runCalling("ask_owner", toolEntry(waitingTool("ask_owner", person)), { question: "x".repeat(100_000) }, new MemoryCallLedger());
    expect(huge.at(-1)?.payload).toMatchObject({ error: true, code: "INVALID_ARGUMENTS", message: "The input of ask_owner is 100015 bytes, more than the 65536 allowed." });
  });

  it("once the result is recorded under the call's key, the call replays it and the tool does not wait again", async () => {
    const calls = new MemoryCallLedger();
    const entry = toolEntry(waitingTool("ask_owner", person));
    const [wait] = await pendingOf(runCalling("ask_owner", entry, { question: "Ship?" }, calls));
    // What the durable store's report does: the result under the call's key.
    await calls.call(wait!.key, { actor: "person", policy: "ask_owner", payload: {} }, async () => ({ answer: "yes", approved: true }));
    const steps = await runCalling("ask_owner", entry, { question: "Ship?" }, calls);
    expect(steps.at(-1)).toMatchObject({ type: "action_result", payload: { answer: "yes", approved: true } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCallLedger, runMachine } from "../../engine";
import { BUILTIN_PROMPT_VARIABLES, type BuiltinPromptVariable } from "../../engine/domain/builtin-variables";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import type { StepDefinition, WorkflowDefinition } from "../definition";
import { compileWorkflow } from "./compile-workflow";
import { fillPromptVariables } from "./prompt-variables";

// Written as the canonical definition the loader produces (the validator's acceptance of these
// names is the loader's part): a code step, an action pair, an llm step, then the probe whose
// prompt names one variable. The probe's first answer is empty, so {attempt} is 2 on its retry.
function definition(probePrompt: string): WorkflowDefinition {
  const step = (fields: Partial<StepDefinition> & Pick<StepDefinition, "name" | "type" | "in_state">): StepDefinition => ({ max_retries: 0, on_failure: "fail", ...fields });
  return {
    name: "variables-demo",
    language: "javascript",
    default_on_failure: "fail",
    default_max_retries: 0,
    context: { note: "original" },
    components: [],
    state_machine: { states: ["preparing", "writing", "observing", "probing", "done"], initial_state: "preparing", final_states: ["done"], transitions: [] },
    steps: [
      step({ name: "prepare", type: "code", in_state: "preparing", code: 'context.note = "changed";', transition_to: "writing" }),
      step({ name: "write", type: "action_pair", in_state: "writing", guard_id: "g_write", prompt: { task: "Write it" }, guards: [{ kind: "syntax" }], transition_to: "observing" }),
      step({ name: "observe", type: "llm", in_state: "observing", prompt: { task: "Look around" }, transition_to: "probing" }),
      step({ name: "probe", type: "llm", in_state: "probing", prompt: { task: probePrompt }, max_retries: 1, transition_to: "done" }),
    ],
  };
}

const EXPECTED: Record<BuiltinPromptVariable, string> = {
  agent_id: "variables-demo",
  workflow: "variables-demo",
  run_id: "run-42",
  task: "Build a counter",
  attempt: "2",
  last_output: "seen it",
  last_action_result: "seen it",
  tick: "4",
  state: "probing",
  artifacts: "g_write (step write)",
  action_history: 'prepare: {"note":"changed"}\nwrite: const a = 1;\nobserve: seen it',
};

/** The text of the messages of each chat completion the fake server received, in order. */
function prompts(server: FakeOpenAiServer): string[] {
  return server.requests.map((request) => (request.messages as { content: string }[]).map((message) => message.content).join("\n"));
}

describe("built-in prompt variables reach the model", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());

  async function probePrompts(prompt: string): Promise<string[]> {
    server.setReplies(["const a = 1;", "seen it", "", "fine"]);
    const before = server.requests.length;
    const machine = compileWorkflow(definition(prompt), { endpoint: { baseURL: server.baseURL, apiKey: "test", model: "fake-model" } });
    const result = await runMachine(machine, { specification: "Build a counter", dag: new InMemoryArtifactDag(), calls: new MemoryCallLedger(), identity: { runId: "run-42", workflow: "variables-demo" } });
    expect(result.status).toBe("success");
    return prompts(server).slice(before + 2);
  }

  it("covers every built-in", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(BUILTIN_PROMPT_VARIABLES).sort());
  });

  it.each(Object.entries(EXPECTED))("{%s}", async (name, value) => {
    const [, retry] = await probePrompts(`Value: <<{${name}}>>`);
    expect(retry).toContain(`Value: <<${value}>>`);
  });

  it("{attempt} is the number of the attempt being generated", async () => {
    const [first, retry] = await probePrompts("Attempt {attempt}");
    expect(first).toContain("Attempt 1");
    expect(retry).toContain("Attempt 2");
  });

  it("{steps.NAME.output} is an earlier step's output, and empty for a step that has not run", async () => {
    const [first] = await probePrompts("Saw <<{steps.observe.output}>>, wrote <<{steps.write.output}>>, set <<{steps.prepare.output}>>, mine <<{steps.probe.output}>>, note <<{note}>>");
    expect(first).toContain('Saw <<seen it>>, wrote <<const a = 1;>>, set <<{"note":"changed"}>>, mine <<>>, note <<changed>>');
  });
});

describe("fillPromptVariables", () => {
  it("fills dotted names it knows and leaves others visible; {{ and }} are braces", () => {
    expect(fillPromptVariables("{steps.a.output} {steps.b.output} {{steps.a.output}} {x.}", { "steps.a.output": "A" })).toBe("A {steps.b.output} {steps.a.output} {x.}");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCallLedger, runMachine } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { validateWorkflowDocument } from "../definition";
import { compileWorkflow } from "./compile-workflow";

// A code step changes two declared variables; the llm and action_pair steps after it must see
// the new values in their prompts, not the defaults the run started with.
const DOCUMENT = `
name: variables-follow-code-steps
language: javascript
context:
  stage: draft
  pass: 1
state_machine:
  states: [preparing, writing, checking, done]
  initial_state: preparing
  final_states: [done]
  transitions:
    - { from: checking, to: done, condition: g_check }
steps:
  - name: prepare
    type: code
    in_state: preparing
    code: |
      context.stage = "final";
      context.pass = context.pass + 1;
    transition_to: writing
  - name: write
    type: llm
    in_state: writing
    prompt: "Write the {stage} text (pass {pass})"
    transition_to: checking
  - name: check
    in_state: checking
    guard_id: g_check
    prompt:
      task: "Check the {stage} version, pass {pass}"
      feedback_wrapper: "Still {stage}: {feedback}"
    guards: [{ kind: syntax }]
`;

/** The user message of each chat completion the fake server received, in order. */
function prompts(server: FakeOpenAiServer): string[] {
  return server.requests.map((request) => {
    const messages = request.messages as { role: string; content: string }[];
    return messages.map((message) => message.content).join("\n");
  });
}

describe("prompt variables during a run", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer(["The final text.", "const checked = true;\n"]);
  });
  afterAll(() => server.close());

  it("fill {name} with the value a code step set earlier in the run, in llm and action_pair prompts", async () => {
    const validated = validateWorkflowDocument(DOCUMENT, "variables.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    const machine = compileWorkflow(validated.definition, { endpoint: { baseURL: server.baseURL, apiKey: "test", model: "fake-model" } });

    const result = await runMachine(machine, { specification: "x", dag: new InMemoryArtifactDag(), calls: new MemoryCallLedger() });

    expect(result.status).toBe("success");
    expect(result.context).toEqual({ stage: "final", pass: 2 });
    const [write, check] = prompts(server);
    expect(write).toContain("Write the final text (pass 2)");
    expect(write).not.toContain("draft");
    expect(check).toContain("Check the final version, pass 2");
    expect(check).not.toContain("draft");
  });
});

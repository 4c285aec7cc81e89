import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCallLedger, runMachine } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { compileWorkflow } from "../compile/compile-workflow";
import { formatProblem } from "../document";
import { validateWorkflowDocument } from "./validate-definition";

// A settings object, then an optional summary that may be given up (on_failure: skip).
const document = (goal: string) => `
name: goal
language: javascript
state_machine:
  states: [configuring, summarising, done]
  initial_state: configuring
  final_states: [done]
  transitions:
    - { from: configuring, to: summarising, condition: g_settings }
    - { from: summarising, to: done }
steps:
  - name: settings
    in_state: configuring
    guard_id: g_settings
    generator: { kind: openai, model: fake-model, extract: text }
    prompt: "Write the settings as JSON"
    guards: [{ kind: json_schema, schema: { type: object } }]
  - name: summary
    in_state: summarising
    guard_id: g_summary
    generator: { kind: openai, model: fake-model, extract: text }
    prompt: "Summarise the settings as a JSON object"
    max_retries: 0
    on_failure: skip
    guards: [{ kind: json_schema, schema: { type: object } }]
${goal}`;

function validOrFail(text: string) {
  const result = validateWorkflowDocument(text, "goal.yaml");
  if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
  return result.definition;
}

describe("the document field goal", () => {
  it("lists guard ids of action_pair steps; it reaches the machine", () => {
    const definition = validOrFail(document("goal: [g_settings, g_summary]"));
    expect(definition.goal).toEqual(["g_settings", "g_summary"]);
    expect(compileWorkflow(definition).goal).toEqual(["g_settings", "g_summary"]);
    expect(compileWorkflow(validOrFail(document(""))).goal).toBeUndefined();
  });

  it("names each unknown or repeated guard id, with its place in the document", () => {
    const result = validateWorkflowDocument(document("goal: [g_settings, g_sumary, g_settings]"), "goal.yaml");
    if (result.ok) expect.fail("expected problems");
    expect(result.problems.map(formatProblem)).toEqual([
      'goal[1] (line 26, column 20): "g_sumary" is not the guard id of any action_pair step (the guard ids are "g_settings", "g_summary")',
      'goal[2] (line 26, column 30): "g_settings" is listed twice',
    ]);
  });

  describe("at run time", () => {
    let server: FakeOpenAiServer;
    beforeAll(async () => {
      server = await startFakeOpenAiServer();
      server.setResponder((body) => (JSON.stringify(body.messages).includes("Write the settings") ? '{"debug": false}' : "Here is a summary."));
    });
    afterAll(() => server.close());
    const run = (goal: string) =>
      runMachine(compileWorkflow(validOrFail(document(goal)), { endpoint: { baseURL: server.baseURL, apiKey: "test", model: "fake-model" } }), {
        specification: "settings",
        dag: new InMemoryArtifactDag(),
        calls: new MemoryCallLedger(),
      });

    it("without goal, the skipped summary keeps the run from success, and the reason says so", async () => {
      expect(await run("")).toMatchObject({ status: "failed", failedStep: "done", reason: 'Goal not reached in final state "done": guard g_summary (step "summary") is not satisfied' });
    });

    it("with goal: [g_settings], the summary is optional and the run succeeds with the settings", async () => {
      const result = await run("goal: [g_settings]");
      expect(result.status).toBe("success");
      expect(result.artifacts.g_settings?.content).toBe('{"debug": false}');
    });
  });
});

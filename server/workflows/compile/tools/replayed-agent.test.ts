import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { composeContext, MemoryCallLedger, type GenerationRequest, type Generator } from "../../../engine";
import { InMemoryArtifactDag } from "../../../engine/testing/in-memory-artifact-dag";
import { isToolsPending, type ToolsPendingError } from "../../../engine/policy/waiting";
import { GeneratorSpecError } from "../../../generators/generator-spec";
import { validateWorkflowDocument, type WorkflowDefinition } from "../../definition";
import { compileWorkflow } from "../compile-workflow";

const document = readFileSync(join(import.meta.dirname, "../../definition/tools/fixtures/agent-tools.yaml"), "utf8");

function definition(): WorkflowDefinition {
  const validated = validateWorkflowDocument(document);
  if (!validated.ok) expect.fail(validated.problems.map((problem) => problem.message).join("\n"));
  return validated.definition;
}

function request(calls: MemoryCallLedger): GenerationRequest {
  return {
    context: composeContext({ repository: new InMemoryArtifactDag(), constraints: "" }, "Write the weekly report"),
    template: undefined,
    stepName: "write",
    attempt: 1,
    calls,
    callKey: "write/attempt-1",
    dependencies: {},
  };
}

/** The fixture's agent step compiled under a replay override, with no model configured anywhere. */
function replayed(cassette: object): Generator {
  const step = compileWorkflow(definition(), { generatorOverride: { kind: "replay", cassette }, models: { endpoints: [] } }).steps[0];
  if (!step || step.kind !== "llm") expect.fail("the fixture's step is an llm step with an agent generator");
  return step.generator;
}

const TURNS = [
  { tool_calls: [{ name: "word_count", arguments: { text: "three short words" } }] },
  { tool_calls: [{ name: "ask_owner", arguments: { question: "Ship it?" } }, { name: "ci_build", arguments: { branch: "main" } }] },
  "The report: 3 words, approved, the build passed.",
];

describe("an agent step of a replayed run, compiled", () => {
  it("keeps the agent and its declared tools: the code tool runs in the sandbox, person and external tools take the recorded reports", async () => {
    const calls = new MemoryCallLedger();
    const generator = replayed({ steps: { write: TURNS }, reports: { ask_owner: [{ answer: "yes", approved: true }], ci_build: [{ passed: true }] } });
    const generation = await generator.generate(request(calls));
    expect(generation.content).toBe("The report: 3 words, approved, the build passed.");
    expect(generation.metadata).toMatchObject({ generator: "replay", agent: true, turns: 3 });
    const results = Object.fromEntries(calls.steps.filter((step) => step.type === "action_result" && step.actor !== "model").map((step) => [step.actor, step.payload]));
    expect(results).toEqual({ word_count: { words: 3 }, ask_owner: { answer: "yes", approved: true }, ci_build: { passed: true } });
  });

  it("suspends on the tools the cassette has no report for, all of the turn's at once", async () => {
    const error = await replayed({ steps: { write: TURNS } })
      .generate(request(new MemoryCallLedger()))
      .catch((thrown: unknown) => thrown);
    expect(isToolsPending(error)).toBe(true);
    expect((error as ToolsPendingError).waits.map((wait) => wait.tool)).toEqual(["ask_owner", "ci_build"]);
  });

  it.each([
    [{ ask_owner: [{ answer: "yes" }, { approved: true }] }, 'steps[0].generator: the cassette\'s reports.ask_owner[1]: does not match the answer_schema of tool "ask_owner": the result must have required property \'answer\''],
    [{ ci_build: [{ passed: "yes" }] }, 'steps[0].generator: the cassette\'s reports.ci_build[0]: does not match the result_schema of tool "ci_build": /passed must be boolean'],
    [{ summarize: [{ status: "succeeded" }] }, "steps[0].generator: the cassette's reports.summarize: \"summarize\" is a workflow tool, which always starts its sub-run (the sub-run replays from the same cassette): remove its reports"],
    [{ word_count: [{ words: 1 }] }, "steps[0].generator: the cassette's reports.word_count: \"word_count\" is a code tool, which runs in a replay too: remove its reports"],
  ])("refuses recorded reports %j before the run: %s", (reports, message) => {
    expect(() => replayed({ steps: { write: TURNS }, reports })).toThrow(GeneratorSpecError);
    expect(() => replayed({ steps: { write: TURNS }, reports })).toThrow(message);
  });

  it("names the override's cassette problem with its path", () => {
    expect(() => replayed({ steps: { write: [{ tool_calls: [{ name: "word_count", arguments: "{" }] }] } })).toThrow(
      "steps[0].generator.cassette: steps.write[0].tool_calls[0].arguments: must be JSON text of an object (not valid JSON)",
    );
  });
});

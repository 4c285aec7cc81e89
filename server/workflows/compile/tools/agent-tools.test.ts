import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeContext, MemoryCallLedger, type GenerationRequest, type Generator } from "../../../engine";
import { InMemoryArtifactDag } from "../../../engine/testing/in-memory-artifact-dag";
import { isToolsPending, type ToolsPendingError } from "../../../engine/policy/waiting";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../../testing/fake-openai-server";
import { validateWorkflowDocument } from "../../definition";
import { compileWorkflow } from "../compile-workflow";

const document = readFileSync(join(import.meta.dirname, "../../definition/tools/fixtures/agent-tools.yaml"), "utf8");

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

describe("an agent step with declared tools, compiled", () => {
  let server: FakeOpenAiServer;
  let generator: Generator;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    const validated = validateWorkflowDocument(document);
    if (!validated.ok) expect.fail(validated.problems.map((problem) => problem.message).join("\n"));
    const machine = compileWorkflow(validated.definition, { endpoint: { baseURL: server.baseURL, apiKey: "k", model: "agent-model" } });
    const step = machine.steps[0];
    if (!step || step.kind !== "llm") expect.fail("the fixture's step is an llm step with an agent generator");
    generator = step.generator;
  });
  afterAll(() => server.close());

  it("offers the model the built-in and the declared tools, runs a code tool in the sandbox, and suspends on a person tool", async () => {
    server.setReplies([
      { toolCalls: [{ name: "word_count", arguments: JSON.stringify({ text: "three short words" }) }] },
      { toolCalls: [{ name: "ask_owner", arguments: JSON.stringify({ question: "Is the report due Friday?" }) }] },
      "unused",
    ]);
    const before = server.requests.length;
    const calls = new MemoryCallLedger();
    const error = await generator.generate(request(calls)).then(
      () => expect.fail("expected the generation to wait for the person"),
      (thrown: unknown) => thrown,
    );
    expect(isToolsPending(error)).toBe(true);
    expect((error as ToolsPendingError).waits).toEqual([
      expect.objectContaining({ key: "write/attempt-1/4/ask_owner", tool: "ask_owner", kind: "person", stepName: "write", attempt: 1, question: "Is the report due Friday?", deadlineAfterMs: 30 * 60_000 }),
    ]);
    // Two model turns; the second saw the code tool's result.
    expect(server.requests.length - before).toBe(2);
    const offered = (server.requests[before]?.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(offered).toEqual(["read_dependency", "check_draft", "read_specification", "word_count", "ask_owner", "summarize", "ci_build"]);
    expect(JSON.stringify(server.requests[before + 1])).toContain('"content":"{\\"words\\":3}"');
    expect(calls.steps.filter((step) => step.type === "action_result").map((step) => step.actor)).toEqual(["model", "word_count", "model"]);
  }, 30_000);
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  composeContext,
  createArtifact,
  createPromptTemplate,
  executeWorkflow,
  always,
  failed,
  passed,
  MemoryCallLedger,
  type GenerationRequest,
  type GuardResult,
} from "../../engine";
import { guardFrom } from "../../engine/testing/scripted-guard";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { createTestDatabase, type TestDatabase } from "../../persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { createOpenAiChatModel } from "../chat/openai-chat-model";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { createAgentGenerator, MAX_TOOL_CALLS_PER_TURN } from "./agent-generator";

const TESTS = "def test_get():\n    assert LRUCache(1).get(1) is None\n";
const IMPL = "class LRUCache:\n    def __init__(self, capacity):\n        self.items = {}\n\n    def get(self, key):\n        return self.items.get(key)\n";
const testArtifact = createArtifact({ id: "t", content: TESTS, version: 1, parentId: null });

const TWO_TOOL_TASK = [
  { toolCalls: [{ name: "read_dependency", arguments: '{"name": "test"}' }] },
  { content: "Let me check a draft.", toolCalls: [{ name: "check_draft", arguments: JSON.stringify({ content: IMPL }) }] },
  `Here is the implementation:\n\`\`\`python\n${IMPL}\`\`\`\n`,
];

describe("agent generator against an OpenAI-compatible server", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.setReplies(["unused"]));

  const agent = (maxTurns?: number) =>
    createAgentGenerator({ model: createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0 }), modelName: "agent-model", maxTurns });

  function request(calls: MemoryCallLedger, checkDraft?: (content: string) => Promise<GuardResult>): GenerationRequest {
    return {
      context: composeContext({ repository: new InMemoryArtifactDag(), constraints: "" }, "Implement an LRU cache"),
      template: createPromptTemplate({ role: "Engineer", constraints: "Python", task: "Implement the cache so the tests pass." }),
      stepName: "implement",
      attempt: 1,
      calls,
      callKey: "implement/attempt-1",
      dependencies: { test: testArtifact },
      checkDraft,
    };
  }

  it("completes a two-tool task, records every step in the ledger, and replays it with zero model calls", async () => {
    server.setReplies(TWO_TOOL_TASK);
    const before = server.requests.length;
    const calls = new MemoryCallLedger();
    const drafts: string[] = [];
    const checkDraft = async (content: string) => (drafts.push(content), passed("1 test passed"));

    const generation = await agent().generate(request(calls, checkDraft));
    expect(generation.content).toBe(IMPL.trimEnd());
    expect(server.requests.length - before).toBe(3);
    expect(drafts).toEqual([IMPL]);
    const secondTurn = JSON.stringify(server.requests.at(-2));
    expect(secondTurn).toContain("assert LRUCache(1).get(1) is None");
    expect(JSON.stringify(server.requests.at(-1))).toContain("1 test passed");
    expect(calls.steps.map((step) => `${step.type}:${step.type === "text" ? "assistant" : step.type === "action_call" ? String(step.payload.policy) : step.actor}`)).toEqual([
      "action_call:model",
      "action_result:model",
      "action_call:read_dependency",
      "action_result:read_dependency",
      "action_call:model",
      "action_result:model",
      "text:assistant",
      "action_call:check_draft",
      "action_result:check_draft",
      "action_call:model",
      "action_result:model",
    ]);
    expect(generation.metadata).toMatchObject({ generator: "agent", turns: 3, toolCalls: 2, replayedTurns: 0 });

    const replay = await agent().generate(request(calls, checkDraft));
    expect(replay.content).toBe(generation.content);
    expect(server.requests.length - before).toBe(3);
    expect(drafts).toHaveLength(1);
    expect(replay.metadata).toMatchObject({ replayedTurns: 3 });
  });

  it("hands tool errors back to the model as data", async () => {
    server.setReplies([{ toolCalls: [{ name: "delete_everything", arguments: "{}" }, { name: "read_dependency", arguments: '{"name": "docs"}' }] }, "```\nfinal\n```"]);
    const calls = new MemoryCallLedger();
    const generation = await agent().generate(request(calls));
    expect(generation.content).toBe("final");
    const results = calls.steps.filter((step) => step.type === "action_result" && step.actor !== "model").map((step) => step.payload);
    expect(results).toEqual([
      { error: true, code: "UNKNOWN_TOOL", message: expect.stringContaining('There is no tool "delete_everything"') },
      { error: true, code: "NOT_FOUND", message: 'No dependency "docs". Available: test' },
    ]);
    expect(JSON.stringify(server.requests.at(-1))).toContain("UNKNOWN_TOOL");
  });

  it("hands a tool call whose input fails the tool's JSON Schema back to the model as an error naming the field", async () => {
    server.setReplies([{ toolCalls: [{ name: "read_dependency", arguments: '{"nam": "test"}' }] }, "```\nfinal\n```"]);
    const calls = new MemoryCallLedger();
    const generation = await agent().generate(request(calls));
    expect(generation.content).toBe("final");
    const refused = calls.steps.find((step) => step.type === "action_result" && step.actor === "read_dependency");
    expect(refused?.payload).toEqual({
      error: true,
      code: "INVALID_ARGUMENTS",
      message: 'The arguments of read_dependency do not match its schema: input is missing the required field "name"; input has an unknown field "nam"',
    });
    const answer = (server.requests.at(-1)?.messages as { role: string; content: string }[]).find((message) => message.role === "tool");
    expect(answer?.content).toContain('missing the required field \\"name\\"');
  });

  it("announces each tool with its description and JSON Schema, and never the internal model policy", async () => {
    server.setReplies(["```\nfinal\n```"]);
    await agent().generate(request(new MemoryCallLedger()));
    const tools = (server.requests.at(-1)?.tools as { function: { name: string; description: string; parameters: unknown } }[]).map((tool) => tool.function);
    expect(tools.map((tool) => tool.name)).toEqual(["read_dependency", "check_draft", "read_specification"]);
    expect(tools[0]).toMatchObject({ description: expect.stringContaining("Read an artifact"), parameters: { type: "object", required: ["name"] } });
  });

  it("answers every tool call of a turn but runs at most MAX_TOOL_CALLS_PER_TURN of them", async () => {
    const many = Array.from({ length: MAX_TOOL_CALLS_PER_TURN + 3 }, () => ({ name: "read_specification", arguments: "{}" }));
    server.setReplies([{ toolCalls: many }, "```\nfinal\n```"]);
    const calls = new MemoryCallLedger();
    const generation = await agent().generate(request(calls));
    expect(generation.content).toBe("final");
    expect(calls.steps.filter((step) => step.type === "action_call" && step.payload.policy === "read_specification")).toHaveLength(MAX_TOOL_CALLS_PER_TURN);
    const answers = (server.requests.at(-1)?.messages as { role: string; content: string }[]).filter((message) => message.role === "tool");
    expect(answers).toHaveLength(many.length);
    expect(answers.at(-1)?.content).toContain("TOO_MANY_TOOL_CALLS");
  });

  it("marks a final answer cut at the size limit as incomplete, for the engine to fail", async () => {
    server.setReplies([{ fault: "huge", bytes: 100_000 }]);
    const small = createAgentGenerator({ model: createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0, maxReplyBytes: 1000 }), modelName: "m" });
    const generation = await small.generate(request(new MemoryCallLedger()));
    expect(generation.incomplete).toBe("The reply was cut at 1000 bytes: answer more briefly.");
  });

  it("stops after max_turns with a generation failure", async () => {
    server.setReplies([{ toolCalls: [{ name: "read_specification", arguments: "{}" }] }]);
    await expect(agent(2).generate(request(new MemoryCallLedger()))).rejects.toMatchObject({ code: "GENERATION_FAILED", reason: "MAX_TURNS" });
  });
});

describe("re-running a finished run against its ledger", () => {
  let server: FakeOpenAiServer;
  let database: TestDatabase;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await server.close();
    await database.dispose();
  });

  it("makes zero model calls and yields identical artifacts", async () => {
    server.setReplies([
      { toolCalls: [{ name: "read_specification", arguments: "{}" }] },
      "```python\ndef add(a, b):\n    return a - b\n```",
      "```python\ndef add(a, b):\n    return a + b\n```",
    ]);
    const runs = new PrismaRunRepository(database.db);
    const { id: runId } = await runs.create({ specification: "Write add(a, b)" });
    const generator = createAgentGenerator({ model: createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0 }), modelName: "m" });
    const guard = guardFrom((artifact) => (artifact.content.includes("a + b") ? passed() : failed("add(1, 2) returned -1, expected 3")));
    const steps = [{ name: "implement", guardId: "g_impl", guardArtifactDeps: [], actionPair: { precondition: always, generator, guard } }];

    const first = await executeWorkflow({ specification: "Write add(a, b)", steps, dag: new InMemoryArtifactDag(), calls: runs.calls(runId) });
    const requestsAfterFirst = server.requests.length;
    const again = await executeWorkflow({ specification: "Write add(a, b)", steps, dag: new InMemoryArtifactDag(), calls: runs.calls(runId) });

    expect(first.status).toBe("success");
    expect(requestsAfterFirst).toBe(3);
    expect(server.requests.length).toBe(requestsAfterFirst);
    expect(again.status).toBe("success");
    expect(again.artifacts.g_impl?.content).toBe(first.artifacts.g_impl?.content);
    expect(again.artifacts.g_impl?.contentHash).toBe(first.artifacts.g_impl?.contentHash);
  });
});

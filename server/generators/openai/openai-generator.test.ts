import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  composeContext,
  createPromptTemplate,
  isEngineError,
  MemoryCallLedger,
  refineContext,
  renderBasicPrompt,
  renderPrompt,
  type GenerationRequest,
} from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { startFakeOpenAiServer, tokenize, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { createOpenAiChatModel, type OpenAiChatModelOptions } from "../chat/openai-chat-model";
import { GenerationFailedError } from "../errors";
import { createOpenAiGenerator, type OpenAiGeneratorOptions, type TokenEvent } from "./openai-generator";

const REPLY = "Here is the function:\n```python\ndef add(a, b):\n    return a + b\n```\nIt adds.";
const CODE = "def add(a, b):\n    return a + b";
const template = createPromptTemplate({ role: "Python engineer", constraints: "No imports", task: "Write add(a, b)." });
const context = composeContext({ repository: new InMemoryArtifactDag(), constraints: "" }, "Write add(a, b)");

function request(calls: MemoryCallLedger, overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  return { context, template, stepName: "implement", attempt: 2, calls, callKey: "run-1/implement/attempt-2", dependencies: {}, ...overrides };
}

describe("OpenAI generator", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  const generator = (options: Partial<OpenAiGeneratorOptions> = {}, modelOptions: OpenAiChatModelOptions = {}) =>
    createOpenAiGenerator({
      model: createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", sleep: async () => undefined, ...modelOptions }),
      modelName: "coder-7b",
      ...options,
    });

  it("sends the rendered template and returns the first code block, with what produced it in the metadata", async () => {
    server.setReplies([REPLY]);
    const generation = await generator({ temperature: 0 }).generate(request(new MemoryCallLedger()));
    expect(generation.content).toBe(CODE);
    const prompt = renderPrompt(template, context);
    expect(server.requests[0]).toMatchObject({ model: "coder-7b", temperature: 0, messages: [{ role: "user", content: prompt }] });
    expect(generation.metadata).toMatchObject({
      generator: "openai",
      model: "coder-7b",
      prompt,
      usage: { promptTokens: 10, completionTokens: REPLY.length, totalTokens: 10 + REPLY.length },
      attempts: 1,
      truncated: false,
      finishReason: "stop",
      replayed: false,
    });
    expect(generation.metadata?.latencyMs).toEqual(expect.any(Number));
  });

  it("uses 001's basic prompt without a template, puts the system prompt first, and keeps the reply whole in text mode", async () => {
    server.setReplies([REPLY]);
    const refined = refineContext(context, "def add(a, b): return a - b", "add(1, 2) returned -1");
    const noTemplate = request(new MemoryCallLedger(), { template: undefined, context: refined });
    const generation = await generator({ extract: "text", systemPrompt: "Answer with code only." }).generate(noTemplate);
    expect(generation.content).toBe(REPLY);
    expect(server.requests[0]?.messages).toEqual([
      { role: "system", content: "Answer with code only." },
      { role: "user", content: renderBasicPrompt(refined) },
    ]);
  });

  it("makes one model request for two generations under the same call key: the second is replayed from the ledger", async () => {
    server.setReplies([REPLY, "a different reply the replay must not see"]);
    const calls = new MemoryCallLedger();
    const gen = generator();
    const first = await gen.generate(request(calls));
    const second = await gen.generate(request(calls));
    expect(server.count).toBe(1);
    expect(second.content).toBe(first.content);
    expect(second.metadata).toMatchObject({ replayed: true, attempts: 1, usage: first.metadata?.usage });
    expect(calls.steps.map((step) => [step.key, step.actor, step.type])).toEqual([
      ["run-1/implement/attempt-2/model", "assistant", "action_call"],
      ["run-1/implement/attempt-2/model", "model", "action_result"],
    ]);
    expect(calls.steps[0]?.payload).toMatchObject({ policy: "model", payload: { model: "coder-7b", messages: [{ role: "user" }] } });
    expect(calls.steps[1]?.payload).toMatchObject({ content: REPLY, model: "coder-7b", truncated: false });
  });

  it("streams tokens with the step and attempt when onToken is given, and not on replay", async () => {
    server.setReplies([REPLY]);
    const events: TokenEvent[] = [];
    const calls = new MemoryCallLedger();
    const gen = generator({ onToken: (event) => events.push(event) });
    const generation = await gen.generate(request(calls));
    expect(events.map((event) => event.token)).toEqual(tokenize(REPLY));
    expect(events.every((event) => event.stepName === "implement" && event.attempt === 2)).toBe(true);
    expect(generation.content).toBe(CODE);
    expect(server.requests[0]).toMatchObject({ stream: true });
    await gen.generate(request(calls));
    expect(events).toHaveLength(tokenize(REPLY).length);
    expect(server.count).toBe(1);
  });

  it("records a final failure in the ledger as data and surfaces it as GenerationFailedError; a replay fails the same way without calling", async () => {
    server.setReplies([{ fault: "500", message: "model crashed" }]);
    const calls = new MemoryCallLedger();
    const gen = generator({}, { maxRetries: 1 });
    const error = await gen.generate(request(calls)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect(isEngineError(error, "GENERATION_FAILED")).toBe(true);
    expect(error).toMatchObject({ name: "GenerationFailedError", reason: "SERVER_ERROR" });
    expect((error as Error).message).toMatch(/^The model call failed: POST .*\/chat\/completions answered HTTP 500: .*model crashed.*after 2 attempts/);
    expect(server.count).toBe(2);
    expect(calls.steps[1]).toMatchObject({ type: "action_result", actor: "model", payload: { error: true, code: "SERVER_ERROR", message: expect.stringContaining("HTTP 500") } });

    const again = await gen.generate(request(calls)).catch((caught: unknown) => caught);
    expect(again).toMatchObject({ reason: "SERVER_ERROR", message: (error as Error).message });
    expect(server.count).toBe(2);
  });

  it("returns a truncated reply cut to the cap and says so in the metadata", async () => {
    server.setReplies([{ fault: "huge", bytes: 5_000_000 }]);
    const calls = new MemoryCallLedger();
    const generation = await generator({}, { maxReplyBytes: 64 * 1024 }).generate(request(calls));
    expect(generation.metadata).toMatchObject({ truncated: true });
    expect(generation.incomplete).toBe("The reply was cut at 65536 bytes: answer more briefly.");
    expect(generation.content).toHaveLength(64 * 1024);
    expect(JSON.stringify(calls.steps).length).toBeLessThan(80 * 1024);
  });

  it("marks nothing incomplete in a whole reply, and reads an old ledger row without the limit as cut at the size limit", async () => {
    server.setReplies([REPLY]);
    expect(await generator().generate(request(new MemoryCallLedger()))).not.toHaveProperty("incomplete");
    const calls = new MemoryCallLedger();
    await calls.call("run-1/implement/attempt-2/model", { actor: "assistant", policy: "model", payload: {} }, async () => ({ content: "def add(a, b):", truncated: true }));
    expect((await generator().generate(request(calls))).incomplete).toBe("The reply was cut at the size limit: answer more briefly.");
  });

  it("marks a reply the endpoint stopped at its token limit (finish_reason length) as incomplete", async () => {
    const body = { model: "m", choices: [{ message: { content: "```python\ndef add(a, b):\n" }, finish_reason: "length" }] };
    server.setReplies([{ fault: "raw", body: JSON.stringify(body), contentType: "application/json" }]);
    const generation = await generator().generate(request(new MemoryCallLedger()));
    expect(generation.incomplete).toBe('The reply was cut at the model\'s output token limit (finish_reason "length"): answer more briefly.');
    expect(generation.content).toBe("def add(a, b):");
  });

  it("sends the template's history so the model sees the guard's feedback", async () => {
    server.setReplies([REPLY]);
    const refined = refineContext(context, "bad", "SyntaxError at line 1");
    await generator().generate(request(new MemoryCallLedger(), { context: refined }));
    expect(JSON.stringify(server.requests[0])).toContain("SyntaxError at line 1");
  });
});

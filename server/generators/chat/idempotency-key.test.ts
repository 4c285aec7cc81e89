/**
 * Every model request carries the ledger's key for its call as an Idempotency-Key header, against
 * the real openai client and a real (fake) OpenAI-compatible server: the same key when a crash
 * between the request and its record makes the call again, a different key for any other call.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { composeContext, createArtifact, createPromptTemplate, MemoryCallLedger, type CallIdentity, type CallLedger, type GenerationRequest } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { createLlmJudgeGuard } from "../../guards/llm-judge/llm-judge-guard";
import { PrismaCallLedger } from "../../persistence/prisma-call-ledger";
import { PrismaRunRepository } from "../../persistence/prisma-run-repository";
import { createTestDatabase, type TestDatabase } from "../../persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { createAgentGenerator } from "../agent/agent-generator";
import { createOpenAiGenerator } from "../openai/openai-generator";
import { createOpenAiChatModel } from "./openai-chat-model";

const context = composeContext({ repository: new InMemoryArtifactDag(), constraints: "" }, "Write add(a, b)");
const template = createPromptTemplate({ role: "Engineer", constraints: "", task: "Write add(a, b)." });
const request = (calls: CallLedger, attempt = 1): GenerationRequest => ({ context, template, stepName: "implement", attempt, calls, callKey: `implement/attempt-${attempt}`, dependencies: {} });

/** A ledger that dies once, like a killed worker, after a call was made and before its result is recorded. */
function dyingOnce(inner: CallLedger): CallLedger {
  let dies = true;
  return {
    call: (key, callRequest, perform) =>
      inner.call(key, callRequest, async (identity?: CallIdentity) => {
        const result = await perform(identity);
        if (!dies) return result;
        dies = false;
        throw new Error("worker killed before recording");
      }),
    note: (key, actor, text) => inner.note(key, actor, text),
  };
}

const recordedKeys = (calls: MemoryCallLedger) => calls.steps.filter((step) => step.type === "action_call").map((step) => step.payload.idempotencyKey);

describe("the Idempotency-Key header of model requests", () => {
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
  beforeEach(() => server.setReplies(["```python\ndef add(a, b):\n    return a + b\n```"]));

  const model = () => createOpenAiChatModel({ baseURL: server.baseURL, apiKey: "k", maxRetries: 2, sleep: async () => undefined });
  const sentSince = (start: number) => server.idempotencyKeys.slice(start);

  it("is the key the ledger records for the call, differs between calls, and is the same when a crash makes the call again", async () => {
    const start = server.count;
    const calls = new MemoryCallLedger();
    const generator = createOpenAiGenerator({ model: model(), modelName: "m" });
    await expect(generator.generate(request(dyingOnce(calls)))).rejects.toThrow("worker killed before recording");
    await generator.generate(request(calls));
    await generator.generate(request(calls)); // recorded: replayed, no request
    await generator.generate(request(calls, 2));
    const sent = sentSince(start);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatch(/^dualstate-[A-Za-z0-9_-]{32}$/);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[0]);
    expect(recordedKeys(calls)).toEqual([sent[0], sent[1], sent[2]]);
  });

  it("is sent on a streamed request and on every retry of one call", async () => {
    server.setReplies([{ fault: "429", retryAfterMs: 1 }, { fault: "500" }, "```\nok\n```"]);
    const start = server.count;
    const calls = new MemoryCallLedger();
    await createOpenAiGenerator({ model: model(), modelName: "m", onToken: () => undefined }).generate(request(calls));
    const sent = sentSince(start);
    expect(sent).toHaveLength(3);
    expect(new Set(sent)).toEqual(new Set(recordedKeys(calls)));
    expect(server.requests.at(-1)).toMatchObject({ stream: true });
  });

  it("is the same for a run resumed by another worker from the database, and differs between runs", async () => {
    const runs = new PrismaRunRepository(database.db);
    const [one, two] = [await runs.create({ specification: "s" }), await runs.create({ specification: "s" })];
    const start = server.count;
    const generator = createOpenAiGenerator({ model: model(), modelName: "m" });
    await expect(generator.generate(request(dyingOnce(runs.calls(one.id))))).rejects.toThrow("worker killed");
    await generator.generate(request(new PrismaCallLedger(database.db, one.id)));
    await generator.generate(request(runs.calls(two.id)));
    const sent = sentSince(start);
    expect(sent).toHaveLength(3);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[0]);
    const recorded = (await runs.ledger(one.id)).filter((entry) => entry.type === "action_call").map((entry) => (entry.payload as { idempotencyKey?: unknown }).idempotencyKey);
    expect(recorded).toEqual([sent[0], sent[1]]);
  });

  it("gives each of an agent's model turns its own key, and a turn repeated after a crash the same one", async () => {
    const turns = [{ toolCalls: [{ name: "read_specification", arguments: "{}" }] }, "```\nfinal\n```"];
    server.setReplies(turns);
    const start = server.count;
    const calls = new MemoryCallLedger();
    const agent = createAgentGenerator({ model: model(), modelName: "agent" });
    await expect(agent.generate(request(dyingOnce(calls)))).rejects.toThrow("worker killed before recording");
    server.setReplies(turns);
    expect((await agent.generate(request(calls))).content).toBe("final");
    const sent = sentSince(start);
    expect(sent).toHaveLength(3);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[0]);
    // The tool call made no request; the ledger names each model call's key beside it.
    expect(calls.steps.filter((step) => step.type === "action_call" && step.payload.policy === "model").map((step) => step.payload.idempotencyKey)).toEqual([sent[0], sent[1], sent[2]]);
  });

  it("is sent by the llm_judge guard inside a run, the same on a re-run after a crash, another for another guard", async () => {
    server.setReplies(['{"passed": true, "feedback": ""}']);
    const start = server.count;
    const judge = createLlmJudgeGuard({ kind: "llm_judge", rubric: "Named add." }, { baseURL: server.baseURL, apiKey: "k", model: "judge" });
    const artifact = createArtifact({ id: "a", content: "def add(a, b): return a + b", version: 1, parentId: null });
    const calls = new MemoryCallLedger();
    await expect(judge.validate(artifact, {}, { calls: dyingOnce(calls), callKey: "implement/attempt-1/guard/1" })).rejects.toThrow("worker killed");
    expect(await judge.validate(artifact, {}, { calls, callKey: "implement/attempt-1/guard/1" })).toMatchObject({ passed: true });
    await judge.validate(artifact, {}, { calls, callKey: "implement/attempt-1/guard/2" });
    await judge.validate(artifact, {});
    const sent = sentSince(start);
    expect(sent).toHaveLength(4);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[0]);
    expect(sent[0]).toMatch(/^dualstate-/);
    // Outside a run nothing records the call, so there is no key to send.
    expect(sent[3]).toBeUndefined();
  });
});

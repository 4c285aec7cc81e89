import { describe, expect, it } from "vitest";
import { composeContext, isEngineError, MemoryCallLedger, type GenerationRequest } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { parseCassette } from "./cassette";
import { CASSETTE_EXHAUSTED, CassetteExhaustedError, createReplayGenerator } from "./replay-generator";

const context = composeContext({ repository: new InMemoryArtifactDag(), constraints: "" }, "Implement LRU Cache");

function request(stepName: string, attempt: number, calls = new MemoryCallLedger()): GenerationRequest {
  return { context, template: undefined, stepName, attempt, calls, callKey: `${stepName}/attempt-${attempt}`, dependencies: {} };
}

const cassette = parseCassette({
  steps: {
    implement: ["class LRUCache: put only", { content: "class LRUCache with get", delay_ms: 1500 }],
    write_tests: ["def test_lru(): ..."],
  },
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("createReplayGenerator", () => {
  it("answers attempt N of a step with the step's N-th recorded artifact", async () => {
    const generator = createReplayGenerator(cassette, { sleep: async () => {} });
    expect((await generator.generate(request("implement", 1))).content).toBe("class LRUCache: put only");
    expect((await generator.generate(request("implement", 2))).content).toBe("class LRUCache with get");
    expect((await generator.generate(request("write_tests", 1))).content).toBe("def test_lru(): ...");
  });

  it("waits delay_ms before answering, through the injected sleep", async () => {
    const slept: number[] = [];
    const generator = createReplayGenerator(cassette, { sleep: async (ms) => void slept.push(ms) });
    const first = await generator.generate(request("implement", 1));
    expect(slept).toEqual([]);
    expect(first.metadata).toEqual({ generator: "replay", delayMs: 0, replayed: false, prompt: expect.stringContaining("Implement LRU Cache") });
    const second = await generator.generate(request("implement", 2));
    expect(slept).toEqual([1500]);
    expect(second.metadata).toEqual({ generator: "replay", delayMs: 1500, replayed: false, prompt: expect.stringContaining("Implement LRU Cache") });
  });

  it("really waits without an injected sleep", async () => {
    const generator = createReplayGenerator(parseCassette({ steps: { s: [{ content: "x", delay_ms: 40 }] } }));
    const started = performance.now();
    await generator.generate(request("s", 1));
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  it("goes through the ledger: one replay call per attempt, and a recorded answer is reused without waiting", async () => {
    const calls = new MemoryCallLedger();
    const slept: number[] = [];
    const generator = createReplayGenerator(cassette, { sleep: async (ms) => void slept.push(ms) });
    await generator.generate(request("implement", 2, calls));
    expect(calls.steps).toEqual([
      { key: "implement/attempt-2/replay", actor: "assistant", type: "action_call", payload: { policy: "replay", payload: { step: "implement", attempt: 2 }, idempotencyKey: expect.stringMatching(/^dualstate-/) } },
      { key: "implement/attempt-2/replay", actor: "replay", type: "action_result", payload: { content: "class LRUCache with get" } },
    ]);
    const again = await generator.generate(request("implement", 2, calls));
    expect(again).toMatchObject({ content: "class LRUCache with get", metadata: { replayed: true } });
    expect(calls.steps).toHaveLength(2);
    expect(slept).toEqual([1500]);
  });

  it("running out of attempts fails the generation naming the step and how many attempts the cassette has", async () => {
    const calls = new MemoryCallLedger();
    const error = await rejection(createReplayGenerator(cassette).generate(request("implement", 3, calls)));
    expect(error).toBeInstanceOf(CassetteExhaustedError);
    expect(error).toMatchObject({ name: "CassetteExhaustedError", code: "GENERATION_FAILED", reason: CASSETTE_EXHAUSTED, stepName: "implement", attempt: 3, recordedAttempts: 2 });
    expect((error as Error).message).toBe('Cassette exhausted for step "implement": asked for attempt 3, the cassette has 2 attempts');
    // The engine ends the step with this reason instead of crashing the run.
    expect(isEngineError(error, "GENERATION_FAILED")).toBe(true);
    // The failure is in the ledger as data, like a failed model call.
    expect(calls.steps.at(-1)).toMatchObject({ type: "action_result", payload: { error: true, code: CASSETTE_EXHAUSTED } });
  });

  it.each(["deploy", "constructor", "__proto__"])("a step the cassette does not have (%s) is named in the error", async (step) => {
    const error = await rejection(createReplayGenerator(cassette).generate(request(step, 1)));
    expect(error).toMatchObject({ name: "CassetteExhaustedError", recordedAttempts: 0, message: `Cassette has no step "${step}" (asked for attempt 1)` });
  });
});

describe("replay delay: bounded and cancellable", () => {
  it("a delay (the real sleep) stops at once when the run's signal aborts; nothing is recorded as the call's result", async () => {
    const slow = parseCassette({ steps: { implement: [{ content: "x", delay_ms: 60_000 }] } });
    const calls = new MemoryCallLedger();
    const controller = new AbortController();
    const reason = new Error("cancelled");
    setTimeout(() => controller.abort(reason), 50);
    const started = performance.now();
    await expect(createReplayGenerator(slow).generate({ ...request("implement", 1, calls), signal: controller.signal })).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(calls.steps.map((step) => step.type)).toEqual(["action_call"]);
  });

  it("refuses an agent's tool-calling turn for a step that is not an agent, naming the entry", async () => {
    const turns = parseCassette({ steps: { implement: [{ content: "thinking", tool_calls: [{ name: "square", arguments: { n: 2 } }] }] } });
    const error = await rejection(createReplayGenerator(turns, { sleep: async () => {} }).generate(request("implement", 1)));
    expect(error).toMatchObject({ reason: "CASSETTE_NOT_AGENT", message: 'Cassette entry steps.implement[0] is an agent\'s turn that calls tools, and step "implement" has no agent generator: record its answer as content only' });
  });

  it("a cassette with a delay above 60 s is refused naming the field", () => {
    expect(() => parseCassette({ steps: { implement: [{ content: "x", delay_ms: 3_600_000 }] } })).toThrow("steps.implement[0].delay_ms: must be at most 60000 (60 s)");
  });
});

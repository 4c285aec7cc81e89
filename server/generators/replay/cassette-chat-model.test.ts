import { describe, expect, it } from "vitest";
import { composeContext, createPromptTemplate, MemoryCallLedger, type GenerationRequest, type JsonObject } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { isToolsPending, type ToolsPendingError } from "../../engine/policy/waiting";
import { DEFAULT_PERSON_INPUT_SCHEMA } from "../../workflows/definition/tools/normalize-tools";
import { waitingTool } from "../../workflows/compile/tools/waiting-tool";
import type { ToolDefinition } from "../agent/tool-registry";
import { createAgentReplayGenerator } from "./agent-replay-generator";
import { parseCassette, type Cassette } from "./cassette";
import { agentAttempts, createCassetteChatModel } from "./cassette-chat-model";

/** A tool that computes, so a replayed turn's call really runs and its result reaches the next turn. */
function squareTool(runs: number[]): ToolDefinition {
  return {
    name: "square",
    description: "Square a number.",
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
    async run(input) {
      const n = Number(input.n);
      runs.push(n);
      return { square: n * n };
    },
  };
}

const askOwner = waitingTool("ask_owner", {
  kind: "person",
  description: "Ask the owner",
  input_schema: DEFAULT_PERSON_INPUT_SCHEMA,
  answer_schema: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
  timeout: "1h",
});

function request(calls: MemoryCallLedger, attempt = 1, stepName = "implement"): GenerationRequest {
  return {
    context: composeContext({ repository: new InMemoryArtifactDag(), constraints: "" }, "Compute a table of squares"),
    template: createPromptTemplate({ role: "", constraints: "", task: "Write the table." }),
    stepName,
    attempt,
    calls,
    callKey: `${stepName}/attempt-${attempt}`,
    dependencies: {},
  };
}

const TURNS = {
  steps: {
    implement: [
      { content: "Let me compute.", tool_calls: [{ name: "square", arguments: { n: 7 } }], delay_ms: 1500 },
      { tool_calls: [{ name: "ask_owner", arguments: '{"question": "Which format?"}' }] },
      { content: "```python\nTABLE = {7: 49}\n```", delay_ms: 2000 },
      { tool_calls: [{ name: "square", arguments: { n: 3 } }] },
      "TABLE = {3: 9}",
    ],
  },
  reports: { ask_owner: [{ answer: "a dict" }] },
};

function agent(cassette: Cassette, tools: readonly ToolDefinition[], options: { maxTurns?: number; sleeps?: number[] } = {}) {
  return createAgentReplayGenerator({ cassette, modelName: "cassette", tools, maxTurns: options.maxTurns, sleep: async (ms) => void options.sleeps?.push(ms) });
}

describe("agentAttempts", () => {
  it("ends an attempt at each final answer, and after max_turns turns that call tools", () => {
    const cassette = parseCassette({ steps: { s: [{ tool_calls: [{ name: "a" }] }, "one", { tool_calls: [{ name: "a" }] }, { tool_calls: [{ name: "a" }] }, { tool_calls: [{ name: "a" }] }, "two"] } });
    expect(agentAttempts(cassette.steps.s!, 8).map((attempt) => [attempt.first, attempt.turns.length])).toEqual([[0, 2], [2, 4]]);
    expect(agentAttempts(cassette.steps.s!, 2).map((attempt) => [attempt.first, attempt.turns.length])).toEqual([[0, 2], [2, 2], [4, 2]]);
  });
});

describe("an agent step replayed from a cassette", () => {
  it("answers the turns in order: the code tool runs, the person is answered from reports, every turn is in the ledger, and a re-run replays them all", async () => {
    const cassette = parseCassette(TURNS);
    const runs: number[] = [];
    const sleeps: number[] = [];
    const calls = new MemoryCallLedger();
    const generation = await agent(cassette, [squareTool(runs), askOwner], { sleeps }).generate(request(calls));

    expect(generation.content).toBe("TABLE = {7: 49}");
    expect(runs).toEqual([7]);
    expect(sleeps).toEqual([1500, 2000]);
    expect(generation.metadata).toMatchObject({ generator: "replay", agent: true, turns: 3, toolCalls: 2, replayedTurns: 0 });
    const results = calls.steps.filter((step) => step.type === "action_result").map((step) => [step.actor, step.payload]);
    expect(results).toContainEqual(["square", { square: 49 }]);
    expect(results).toContainEqual(["ask_owner", { answer: "a dict" }]);
    expect(results.filter(([actor]) => actor === "model")).toHaveLength(3);

    // The same ledger again (a crash, or a resumed turn): every model turn and tool result is read back.
    const again = await agent(cassette, [squareTool(runs), askOwner], { sleeps }).generate(request(calls));
    expect(again.content).toBe("TABLE = {7: 49}");
    expect(again.metadata).toMatchObject({ replayedTurns: 3 });
    expect(runs).toEqual([7]);
    expect(sleeps).toEqual([1500, 2000]);
  });

  it("gives attempt 2 the turns after attempt 1's final answer", async () => {
    const runs: number[] = [];
    const generation = await agent(parseCassette(TURNS), [squareTool(runs), askOwner]).generate(request(new MemoryCallLedger(), 2));
    expect(generation.content).toBe("TABLE = {3: 9}");
    expect(runs).toEqual([3]);
  });

  it("waits as usual for a person the cassette has no report for", async () => {
    const cassette = parseCassette({ ...TURNS, reports: undefined });
    const error = await agent(cassette, [squareTool([]), askOwner]).generate(request(new MemoryCallLedger())).catch((thrown: unknown) => thrown);
    expect(isToolsPending(error)).toBe(true);
    expect((error as ToolsPendingError).waits).toMatchObject([{ tool: "ask_owner", kind: "person", question: "Which format?", stepName: "implement", attempt: 1 }]);
  });

  it("takes attempt N's report, and the last one for later attempts", async () => {
    const cassette = parseCassette({
      steps: { implement: [{ tool_calls: [{ name: "ask_owner", arguments: { question: "Again?" } }] }, "done"] },
      reports: { ask_owner: [{ answer: "first" }, { answer: "second" }] },
    });
    const answers: JsonObject[] = [];
    for (const attempt of [1, 2, 3]) {
      const calls = new MemoryCallLedger();
      // Each attempt of this cassette is the same two turns: repeat them per attempt.
      const repeated = parseCassette({ ...cassette, steps: { implement: Array.from({ length: attempt }, () => cassette.steps.implement!).flat() } });
      await agent(repeated, [askOwner]).generate(request(calls, attempt));
      answers.push(calls.steps.find((step) => step.type === "action_result" && step.actor === "ask_owner")!.payload);
    }
    expect(answers).toEqual([{ answer: "first" }, { answer: "second" }, { answer: "second" }]);
  });

  it("fails the step with a message naming it when the cassette runs out of turns", async () => {
    const cassette = parseCassette({ steps: { implement: [{ tool_calls: [{ name: "square", arguments: { n: 2 } }] }] } });
    await expect(agent(cassette, [squareTool([])]).generate(request(new MemoryCallLedger()))).rejects.toThrow(
      /Cassette exhausted for step "implement": its agent asked for turn 2 of attempt 1, and that attempt's turns \(entries 0\.\.0\) end after turn 1 without a final answer/,
    );
    await expect(agent(parseCassette(TURNS), []).generate(request(new MemoryCallLedger(), 3))).rejects.toThrow(
      /Cassette exhausted for step "implement": its agent asked for turn 1 of attempt 3, and the cassette's 5 turns make 2 attempts/,
    );
    await expect(agent(parseCassette(TURNS), []).generate(request(new MemoryCallLedger(), 1, "review"))).rejects.toThrow(/Cassette has no step "review"/);
  });

  it("ends an attempt after max_turns turns that call tools, as the live agent stops there; the next attempt starts after them", async () => {
    const turns: unknown[] = [1, 2, 3].map((n) => ({ tool_calls: [{ name: "square", arguments: { n } }] }));
    const cassette = parseCassette({ steps: { implement: [...turns, "TABLE = {3: 9}"] } });
    const runs: number[] = [];
    await expect(agent(cassette, [squareTool(runs)], { maxTurns: 2 }).generate(request(new MemoryCallLedger(), 1))).rejects.toMatchObject({ reason: "MAX_TURNS" });
    expect(runs).toEqual([1, 2]);
    expect((await agent(cassette, [squareTool(runs)], { maxTurns: 2 }).generate(request(new MemoryCallLedger(), 2))).content).toBe("TABLE = {3: 9}");
    expect(runs).toEqual([1, 2, 3]);
  });

  it("hands a call of a tool the step does not have back to the model as an error, as a live model's would be", async () => {
    const cassette = parseCassette({ steps: { implement: [{ tool_calls: [{ name: "nonexistent", arguments: {} }] }, "fine"] } });
    const calls = new MemoryCallLedger();
    expect((await agent(cassette, []).generate(request(calls))).content).toBe("fine");
    expect(JSON.stringify(calls.steps)).toContain("nonexistent");
  });
});

describe("createCassetteChatModel", () => {
  it("reads the turn from the conversation, not from a count it keeps", async () => {
    const model = createCassetteChatModel({ cassette: parseCassette(TURNS), stepName: "implement", attempt: 1, maxTurns: 8, sleep: async () => {} });
    const asked = (assistantMessages: number) =>
      model.complete({ model: "m", messages: [{ role: "user", content: "go" }, ...Array.from({ length: assistantMessages }, () => ({ role: "assistant" as const, content: null, toolCalls: [] }))] });
    expect((await asked(2)).content).toContain("TABLE = {7: 49}");
    const first = await asked(0);
    expect(first).toMatchObject({ content: "Let me compute.", finishReason: "tool_calls", toolCalls: [{ id: "call_1_1_1", name: "square", arguments: '{"n":7}' }] });
    expect((await asked(1)).toolCalls).toEqual([{ id: "call_1_2_1", name: "ask_owner", arguments: '{"question": "Which format?"}' }]);
  });
});

/**
 * Issue 15, item 6 end to end: the product's own `openai` client against a real HTTP server that
 * answers with replies that are not answers, through a compiled workflow run by the engine. The
 * run must not move on, the retry budget must hold and the ledger must show what happened.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_REPLY_FEEDBACK, MemoryCallLedger, runMachine, type MachineResult } from "../engine";
import { InMemoryArtifactDag } from "../engine/testing/in-memory-artifact-dag";
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply } from "../testing/fake-openai-server";
import { compileWorkflow } from "../workflows/compile";
import { validateWorkflowDocument } from "../workflows/definition";

const GOOD = "```javascript\nconst add = (a, b) => a + b;\n```";
const HTML = "<!DOCTYPE html><html><head><title>Gateway sign-in</title></head><body>Log in</body></html>";

interface StepOptions {
  readonly generator?: Record<string, unknown>;
  readonly allowEmpty?: boolean;
}

/** One action pair guarded by a syntax check, the lenient guard that used to pass an empty artifact. */
function definition(options: StepOptions = {}) {
  const result = validateWorkflowDocument(
    JSON.stringify({
      workflow: {
        name: "add",
        language: "javascript",
        state_machine: { states: ["implementing", "done"], initial_state: "implementing", final_states: ["done"], transitions: [{ from: "implementing", to: "done", condition: "g_impl" }] },
        steps: [
          {
            name: "implement",
            type: "action_pair",
            in_state: "implementing",
            guard_id: "g_impl",
            generator: options.generator ?? { kind: "openai", model: "m", max_retries: 2 },
            prompt: "Write add(a, b)",
            guards: [{ kind: "syntax" }],
            max_retries: 2,
            on_failure: "fail",
            ...(options.allowEmpty ? { allow_empty: true } : {}),
          },
        ],
      },
    }),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.definition;
}

describe("replies that are not answers never move a run on", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  async function run(replies: readonly FakeReply[], options: StepOptions & { streamed?: boolean } = {}) {
    server.setReplies(replies);
    const tokens: string[] = [];
    const machine = compileWorkflow(definition(options), {
      endpoint: { baseURL: server.baseURL, apiKey: "k" },
      onToken: options.streamed ? (event) => void tokens.push(event.token) : undefined,
    });
    const calls = new MemoryCallLedger();
    const dag = new InMemoryArtifactDag();
    const result = await runMachine(machine, { specification: "Write add(a, b)", dag, calls });
    const modelResults = calls.steps.filter((step) => step.type === "action_result" && step.actor === "model").map((step) => step.payload);
    return { result, calls, dag, modelResults, tokens };
  }

  function expectStuck(result: MachineResult) {
    expect(result.status).toBe("failed");
    expect(result.finalState).toBe("implementing");
    expect(result.path).toEqual(["implementing"]);
    expect(result.artifacts).not.toHaveProperty("g_impl");
  }

  describe("a reply that breaks the protocol is an infrastructure failure", () => {
    it.each([
      ["an HTML page with status 200", { fault: "raw", body: HTML, contentType: "text/html" }, "the endpoint answered with an HTML page, not a chat completion (status 200, text/html)"],
      ["{}", { fault: "raw", body: "{}", contentType: "application/json" }, "it has no choices"],
      ['{"choices":[]}', { fault: "raw", body: '{"choices":[]}', contentType: "application/json" }, "its choices list is empty"],
      ["a stream cut mid-way", { fault: "cut_stream", content: "const add = (a, b) =>" }, "the stream ended before the reply was finished"],
    ] as const)("%s: retried with backoff, recorded, and the step fails with the reason; no artifact", async (_name, reply, reason) => {
      const { result, dag, modelResults } = await run([reply], { streamed: true });
      expectStuck(result);
      if (result.status !== "failed") return;
      expect(result.reason).toContain(`Step "implement" could not generate attempt 1`);
      expect(result.reason).toContain(reason);
      expect(result.reason).toContain("gave up after 3 attempts");
      // max_retries 2 of the generator: three HTTP requests, one failed call in the ledger, no guard run.
      expect(server.count).toBe(3);
      expect(modelResults).toEqual([{ error: true, code: "MALFORMED_RESPONSE", message: expect.stringContaining(reason) }]);
      expect(dag.all()).toEqual([]);
    });

    it("a whole (not streamed) HTML page fails the same way", async () => {
      const { result } = await run([{ fault: "raw", body: HTML, contentType: "text/html" }]);
      expectStuck(result);
      if (result.status === "failed") expect(result.reason).toContain("HTML page, not a chat completion (status 200, text/html)");
    });

    it("a retry that brings a sound reply goes on as if nothing happened", async () => {
      const { result, modelResults } = await run([{ fault: "raw", body: HTML }, { fault: "raw", body: "{}", contentType: "application/json" }, GOOD], { streamed: true });
      expect(result.status).toBe("success");
      expect(result.artifacts.g_impl?.content).toBe("const add = (a, b) => a + b;");
      expect(modelResults).toEqual([expect.objectContaining({ content: GOOD, attempts: 3 })]);
    });

    it("a 50 MB whole body is refused unread past 32 MiB, not retried, and fails the step", async () => {
      const { result, modelResults } = await run([{ fault: "huge", bytes: 50 * 1024 * 1024 }]);
      expectStuck(result);
      expect(server.count).toBe(1);
      expect(modelResults[0]).toMatchObject({ error: true, code: "RESPONSE_TOO_LARGE" });
    });
  });

  describe("an empty or cut-off reply is a failed attempt, and the model is asked again", () => {
    it.each([true, false])("whitespace, nothing and an empty code block use up the step's budget (streamed: %s)", async (streamed) => {
      const { result, dag, modelResults } = await run(["   \n\t ", "", "```javascript\n\n```", GOOD], { streamed });
      expectStuck(result);
      if (result.status === "failed") expect(result.reason).toBe('Step "implement" failed after 3 attempts (retry budget exhausted)');
      // max_retries 2 of the step: three attempts, three model calls, the fourth reply never asked for.
      expect(server.count).toBe(3);
      expect(modelResults).toHaveLength(3);
      const stored = dag.all();
      expect(stored).toHaveLength(3);
      for (const attempt of stored) expect(attempt.result).toMatchObject({ passed: false, fatal: false, feedback: EMPTY_REPLY_FEEDBACK });
    });

    it("the next attempt's prompt says the reply was empty, and a real answer then passes", async () => {
      const { result } = await run([" ", GOOD]);
      expect(result.status).toBe("success");
      expect(JSON.stringify(server.requests[1])).toContain("The reply was empty");
    });

    it("a 50 MB streamed reply is cut at max_reply_bytes, fails its attempt saying so, and the retry passes", async () => {
      const { result, dag, tokens } = await run([{ fault: "huge", bytes: 50 * 1024 * 1024 }, GOOD], { streamed: true });
      expect(result.status).toBe("success");
      const [cut, good] = dag.all();
      expect(cut?.result).toMatchObject({ passed: false, feedback: "The reply was cut at 262144 bytes: answer more briefly." });
      expect(cut?.artifact.content.length).toBeLessThanOrEqual(262_144);
      expect(good?.result.passed).toBe(true);
      expect(JSON.stringify(server.requests[1])).toContain("answer more briefly");
      expect(tokens.join("").length).toBeLessThan(300_000 + GOOD.length);
    });

    it("a step that allows empty content passes it", async () => {
      const { result } = await run([""], { allowEmpty: true });
      expect(result.status).toBe("success");
      expect(result.artifacts.g_impl?.content).toBe("");
    });
  });

  describe("the agent loop", () => {
    const agent = { kind: "agent", model: "m", max_turns: 3, max_retries: 0 };

    it("hands malformed tool arguments back to the model as a tool error, and its next answer is the artifact", async () => {
      const { result, calls } = await run([{ toolCalls: [{ name: "check_draft", arguments: '{"content": "const x = ' }] }, GOOD], { generator: agent });
      expect(result.status).toBe("success");
      expect(result.artifacts.g_impl?.content).toBe("const add = (a, b) => a + b;");
      const toolResult = calls.steps.find((step) => step.type === "action_result" && step.actor === "check_draft");
      expect(toolResult?.payload).toMatchObject({ error: true, code: "INVALID_ARGUMENTS", message: expect.stringContaining("not valid JSON") });
      expect(JSON.stringify(toolResult?.payload)).not.toContain("const x = ");
      expect(JSON.stringify(server.requests[1])).toContain("INVALID_ARGUMENTS");
    });

    it("malformed arguments on every turn end the attempt within the turn budget, never as an empty answer", async () => {
      const { result, dag } = await run([{ toolCalls: [{ name: "read_specification", arguments: "{{{" }] }], { generator: agent });
      expectStuck(result);
      if (result.status === "failed") expect(result.reason).toContain("tool calls on all 3 turns without giving a final answer");
      expect(server.count).toBe(3);
      expect(dag.all()).toEqual([]);
    });

    it("content null beside tool calls is a normal turn; content null with no tool call is an empty answer", async () => {
      const { result, dag } = await run(
        [{ content: null as never, toolCalls: [{ name: "read_specification", arguments: "{}" }] }, { content: null as never }, GOOD],
        { generator: agent },
      );
      expect(result.status).toBe("success");
      const [empty, good] = dag.all();
      expect(empty?.result.feedback).toBe(EMPTY_REPLY_FEEDBACK);
      expect(good?.result.passed).toBe(true);
    });
  });
});

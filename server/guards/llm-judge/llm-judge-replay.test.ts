import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryCallLedger, runMachine, type ArtifactDag } from "../../engine";
import { InMemoryArtifactDag } from "../../engine/testing/in-memory-artifact-dag";
import { MemoryJournal } from "../../engine/testing/memory-journal";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../testing/fake-openai-server";
import { validateWorkflowDocument } from "../../workflows/definition";
import { compileWorkflow } from "../../workflows/compile/compile-workflow";

// One action pair whose guards are a syntax check and two judges: every judge's answer must be
// in the ledger, so a resumed run reads it back instead of asking (and perhaps hearing) again.
const DOCUMENT = `
name: judged
language: javascript
state_machine:
  states: [writing, done]
  initial_state: writing
  final_states: [done]
  transitions:
    - { from: writing, to: done, condition: g_write }
steps:
  - name: write
    in_state: writing
    guard_id: g_write
    generator: { kind: openai, model: writer-model }
    prompt: "Write an add function"
    max_retries: 0
    guards:
      - { kind: syntax }
      - { kind: llm_judge, rubric: "The function must be named add." }
      - { kind: llm_judge, rubric: "The function must return a value." }
`;

const isJudgeRequest = (body: Record<string, unknown>) => JSON.stringify(body.messages).includes("# RUBRIC");

/** An ArtifactDag whose first store dies like a killed worker: after every guard answered, before the verdict is kept. */
class DyingDag extends InMemoryArtifactDag {
  dies = true;
  override async store(entry: Parameters<ArtifactDag["store"]>[0]): Promise<void> {
    if (this.dies) {
      this.dies = false;
      throw new Error("worker died");
    }
    return super.store(entry);
  }
}

describe("llm_judge verdicts are in the run's ledger", () => {
  let server: FakeOpenAiServer;
  let judgeRequests = 0;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    judgeRequests = 0;
    // The first answer of each judge passes; any later one would fail: a judge asked twice changes the verdict.
    server.setResponder((body) => {
      if (!isJudgeRequest(body)) return "```javascript\nfunction add(a, b) {\n  return a + b;\n}\n```";
      judgeRequests++;
      return judgeRequests <= 2 ? '{"passed": true, "feedback": "fine"}' : '{"passed": false, "feedback": "asked again"}';
    });
  });

  function compiled() {
    const validated = validateWorkflowDocument(DOCUMENT, "judged.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    return compileWorkflow(validated.definition, { endpoint: { baseURL: server.baseURL, apiKey: "test", model: "judge-model" } });
  }

  it("a run resumed after a crash past the judges replays their answers: one request per judge, the same verdict", async () => {
    const dag = new DyingDag();
    const journal = new MemoryJournal();
    const calls = new MemoryCallLedger();
    const turn = () => runMachine(compiled(), { specification: "add", dag, observer: journal, calls, newId: (key) => `id:${key}` });

    await expect(turn()).rejects.toThrow("worker died");
    expect(judgeRequests).toBe(2);
    const requestsBeforeResume = server.count;

    const resumed = await turn();
    expect(resumed.status).toBe("success");
    expect(server.count).toBe(requestsBeforeResume); // neither the writer nor a judge was asked again
    expect(judgeRequests).toBe(2);

    // Each judge's request and answer were recorded under its own key, before the verdict was used.
    const judged = calls.steps.filter((step) => step.key?.endsWith("/judge"));
    expect(judged.map((step) => `${step.type} ${step.key}`)).toEqual([
      "action_call write/attempt-1/guard/2/judge",
      "action_result write/attempt-1/guard/2/judge",
      "action_call write/attempt-1/guard/3/judge",
      "action_result write/attempt-1/guard/3/judge",
    ]);
    expect(judged[0]).toMatchObject({ actor: "llm_judge", payload: { policy: "model", payload: { model: "judge-model" } } });
    expect(judged[1]?.payload).toMatchObject({ content: '{"passed": true, "feedback": "fine"}' });
    const verdicts = journal.events.filter((event) => event.type === "guard.completed");
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({ result: { passed: true } });
  });

  it("an unreachable judge is recorded as data: the resumed run gets the same failed verdict without calling", async () => {
    server.setResponder((body) => {
      if (!isJudgeRequest(body)) return "```javascript\nfunction add(a, b) {\n  return a + b;\n}\n```";
      judgeRequests++;
      return judgeRequests === 1 ? { fault: "401", message: "bad key" } : '{"passed": true}';
    });
    const dag = new DyingDag();
    const journal = new MemoryJournal();
    const calls = new MemoryCallLedger();
    const turn = () => runMachine(compiled(), { specification: "add", dag, observer: journal, calls, newId: (key) => `id:${key}` });

    await expect(turn()).rejects.toThrow("worker died");
    const resumed = await turn();
    expect(judgeRequests).toBe(1);
    if (resumed.status !== "failed") throw new Error(resumed.status);
    expect(resumed.provenance[0]?.feedback).toMatch(/^Guard 2 of 3: The LLM judge could not be reached \(judge-model\): .*401/);
    expect(calls.steps.find((step) => step.type === "action_result" && step.key?.endsWith("/judge"))?.payload).toMatchObject({ error: true, code: "JUDGE_UNREACHABLE" });
  });
});

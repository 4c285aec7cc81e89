import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "../../../durable/doorbell";
import { TEST_PROVIDERS } from "../../../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../../../services/workflows/save-definition";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../../../testing/fake-openai-server";
import { until } from "../../../testing/until";
import { RunWorker } from "../../../worker/run-worker";
import { createDurableFixture, type DurableFixture } from "../../../worker/testing/durable-fixture";
import { validateWorkflowDocument } from "../../definition";

/** An agent step with a code tool and a person tool; the model counts words, asks the owner, then answers. */
const DOCUMENT = `
workflow:
  name: ask-then-write
  language: javascript
  tools:
    word_count:
      kind: code
      description: Count the words of a text.
      input_schema: { type: object, properties: { text: { type: string } }, required: [text] }
      code: |
        function run(input) {
          return { words: input.text.split(/\\s+/).filter(Boolean).length };
        }
    ask_owner:
      kind: person
      description: Ask the owner of the project a question.
      answer_schema: { type: object, properties: { answer: { type: string } }, required: [answer] }
      timeout: 1h
  state_machine: { states: [writing, done], initial_state: writing, final_states: [done] }
  steps:
    - name: write
      in_state: writing
      generator: { kind: agent, extract: text, tools: [word_count, ask_owner] }
      prompt: "Write the report: {specification}"
      transition_to: done
`;

/** A parent whose agent delegates to the `summarizer` workflow, and that workflow. */
const DELEGATOR = `
name: delegator
tools:
  summarize: { kind: workflow, workflow: summarizer, description: Summarize a text with the summarizer workflow., timeout: 1h }
state_machine: { states: [writing, done], initial_state: writing, final_states: [done] }
steps:
  - { name: delegate, in_state: writing, generator: { kind: agent, extract: text, tools: [summarize] }, prompt: "Delegate: {specification}", transition_to: done }
`;
const SUMMARIZER = `
name: summarizer
state_machine: { states: [summing, done], initial_state: summing, final_states: [done] }
steps:
  - { name: sum, in_state: summing, prompt: "Summarize: {specification}", transition_to: done }
`;

/**
 * The model: the summarizer's step answers at once; an agent first calls its tools in one turn,
 * then (having read every result) answers with them.
 */
function modelReplies(body: Record<string, unknown>) {
  const messages = body.messages as { role: string; content?: string }[];
  if (messages.some((message) => message.role === "user" && message.content?.includes("Summarize: "))) return "a short summary";
  const toolMessages = messages.filter((message) => message.role === "tool");
  if (messages.some((message) => message.role === "user" && message.content?.includes("Delegate: "))) {
    return toolMessages.length === 0 ? { toolCalls: [{ name: "summarize", arguments: JSON.stringify({ specification: "the README" }) }] } : `Delegated (${toolMessages[0]?.content})`;
  }
  if (toolMessages.length === 0) {
    return { toolCalls: [{ name: "word_count", arguments: JSON.stringify({ text: "one two three" }) }, { name: "ask_owner", arguments: JSON.stringify({ question: "Friday or Monday?" }) }] };
  }
  return `Report (${toolMessages.map((message) => message.content).join(" ")})`;
}

describe.each(TEST_PROVIDERS)("declared tools in a durable run on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  let model: FakeOpenAiServer;
  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    model = await startFakeOpenAiServer();
    model.setResponder(modelReplies);
    const compile = { endpoint: { baseURL: model.baseURL, apiKey: "k", model: "agent-model" } };
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile, concurrency: 1, pollMs: 200, log: () => undefined });
    worker.start();
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await model.close();
    await fixture.dispose();
  });

  const runIn = (runId: string, statuses: string[]) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return statuses.includes(run.status) ? run : undefined;
    });

  it("runs the code tool, suspends on the person tool, and after the answer resumes without calling anything twice", async () => {
    const validated = validateWorkflowDocument(DOCUMENT);
    if (!validated.ok) expect.fail(JSON.stringify(validated.problems));
    const { versionId } = await saveWorkflowDefinition(fixture.database.db, validated.definition);
    const before = model.count;
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: versionId, specification: "the weekly report", contextValues: {} });

    expect((await runIn(runId, ["suspended", "failed", "succeeded"])).status).toBe("suspended");
    const [wait, ...others] = await fixture.database.db.toolWait.findMany({ where: { runId } });
    expect(others).toEqual([]);
    expect(wait).toMatchObject({ tool: "ask_owner", kind: "person", stepName: "write", attempt: 1, status: "waiting", question: "Friday or Monday?", input: { question: "Friday or Monday?" } });
    expect(wait?.resultSchema).toEqual({ type: "object", properties: { answer: { type: "string" } }, required: ["answer"] });
    expect(wait!.deadlineAt.getTime() - wait!.createdAt.getTime()).toBeGreaterThan(59 * 60_000);
    expect(model.count - before).toBe(1);

    expect(await fixture.store.reportToolResult({ runId, callId: wait!.id, result: { answer: "Friday" }, reportedBy: "owner@example.com" })).toMatchObject({ applied: true, resumed: true });
    const finished = await runIn(runId, ["succeeded", "failed"]);
    expect(finished.status, JSON.stringify(finished.finalResult)).toBe("succeeded");
    // The resumed turn replayed the first model turn and the code tool: one more model call only.
    expect(model.count - before).toBe(2);
    // Each call has one recorded result: the code tool ran once; the person's answer is recorded as theirs.
    const results = await fixture.database.db.ledgerEntry.findMany({ where: { runId, type: "action_result" }, orderBy: { seq: "asc" } });
    expect(results.map((entry) => entry.actor)).toEqual(["model", "word_count", "owner@example.com", "model"]);
    const step = await fixture.database.db.ledgerEntry.findFirstOrThrow({ where: { runId, type: "step.completed" } });
    expect((step.payload as { output?: string }).output).toBe('Report ({"words":3} {"answer":"Friday"})');
  }, 60_000);

  it("a workflow tool starts a sub-run of the named workflow and resumes with its result", async () => {
    for (const text of [SUMMARIZER, DELEGATOR]) {
      const validated = validateWorkflowDocument(text);
      if (!validated.ok) expect.fail(JSON.stringify(validated.problems));
      await saveWorkflowDefinition(fixture.database.db, validated.definition);
    }
    const parent = await fixture.database.db.workflowVersion.findFirstOrThrow({ where: { workflow: { name: "delegator" } }, select: { id: true } });
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: parent.id, specification: "summarize the README", contextValues: {} });

    const finished = await runIn(runId, ["succeeded", "failed"]);
    expect(finished.status, JSON.stringify(finished.finalResult)).toBe("succeeded");
    const [wait] = await fixture.database.db.toolWait.findMany({ where: { runId } });
    expect(wait).toMatchObject({ tool: "summarize", kind: "workflow", workflow: "summarizer", status: "reported", input: { specification: "the README" } });
    const child = await fixture.database.db.run.findUniqueOrThrow({ where: { id: wait!.childRunId! } });
    expect(child).toMatchObject({ specification: "the README", parentRunId: runId, parentCallId: wait!.id, status: "succeeded" });
    const step = await fixture.database.db.ledgerEntry.findFirstOrThrow({ where: { runId, type: "step.completed" } });
    expect(JSON.parse((step.payload as { output: string }).output.replace(/^Delegated \(|\)$/g, ""))).toEqual({ status: "succeeded", runId: child.id, artifacts: {} });
  }, 60_000);
});

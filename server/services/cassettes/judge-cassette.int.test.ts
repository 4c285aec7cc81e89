import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "@/server/durable/doorbell";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/server/testing/fake-openai-server";
import { until } from "@/server/testing/until";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { saveWorkflowDefinition } from "../workflows/save-definition";
import { exportCassette } from "./export-cassette";

const DOCUMENT = `
name: judged-export
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
    generator: { kind: llm }
    prompt: "Write an add function"
    max_retries: 2
    guards:
      - { kind: syntax }
      - { kind: llm_judge, rubric: "The function must be named add." }
`;

describe.each(TEST_PROVIDERS)("a judged run exported as a cassette replays offline on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  let model: FakeOpenAiServer;
  let versionId: string;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    const validated = validateWorkflowDocument(DOCUMENT, "judged-export.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    versionId = (await saveWorkflowDefinition(fixture.database.db, validated.definition)).versionId;
    model = await startFakeOpenAiServer();
    let written = 0;
    let judged = 0;
    // The writer names its function sum first, then add; the judge objects to the first.
    model.setResponder((body) => {
      if (JSON.stringify(body.messages).includes("# RUBRIC")) return ++judged === 1 ? '{"passed": false, "feedback": "Rename sum to add."}' : '{"passed": true, "feedback": ""}';
      return ++written === 1 ? "function sum(a, b) { return a + b; }" : "function add(a, b) { return a + b; }";
    });
    const compile = { endpoint: { baseURL: model.baseURL, apiKey: "test", model: "fake-model" } };
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile, concurrency: 1, pollMs: 100, log: (line) => console.error(line) });
    worker.start();
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await model.close().catch(() => undefined);
    await fixture.dispose();
  });

  const ended = (runId: string) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ["succeeded", "failed", "cancelled"].includes(run.status) ? run : undefined;
    }, 30_000);

  it("keeps the judge's verdicts per attempt, and the replay reaches the same outcome with the model gone", async () => {
    const live = await fixture.store.enqueueRun({ workflowVersionId: versionId, specification: "add" });
    expect((await ended(live.runId)).status).toBe("succeeded");
    const cassette = await exportCassette(fixture.database.db, live.runId);
    expect(cassette.steps.write).toEqual(["function sum(a, b) { return a + b; }", "function add(a, b) { return a + b; }"]);
    expect(cassette.judges).toEqual({ write: [{ passed: false, feedback: "Rename sum to add." }, { passed: true, feedback: "" }] });

    const requestsBefore = model.count;
    await model.close();
    const replayed = await fixture.store.enqueueRun({ workflowVersionId: versionId, specification: "add", generatorOverride: { kind: "replay", cassette } });
    expect((await ended(replayed.runId)).status).toBe("succeeded");
    expect(model.count).toBe(requestsBefore);
    const feedback = await fixture.database.db.artifact.findFirstOrThrow({ where: { runId: replayed.runId, attempt: 1 }, select: { passed: true, feedback: true } });
    expect(feedback).toMatchObject({ passed: false, feedback: expect.stringContaining("Rename sum to add.") });
  });
});

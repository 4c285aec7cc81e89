import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "../durable/doorbell";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../testing/fake-openai-server";
import { until } from "../testing/until";
import { validateWorkflowDocument } from "../workflows/definition";
import { RunWorker } from "./run-worker";
import { spawnWorker } from "./testing/spawn-worker";

// One model call that streams its reply (so a call would also write a live preview).
const WORKFLOW = `
name: paused-worker
specification: Write a JSON object
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
    generator: { kind: openai, model: fake-model, extract: text }
    prompt: "Write a JSON object"
    guards: [{ kind: json_schema, schema: { type: object, required: [a] } }]
`;

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe.each(TEST_PROVIDERS)("a worker paused past its lease, then resumed (%s)", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let fake: FakeOpenAiServer;
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    fake = await startFakeOpenAiServer();
    fake.setReplies([{ content: '{"a": 1}', chunkDelayMs: 5 }]);
    const validated = validateWorkflowDocument(WORKFLOW, "paused-worker.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    versionId = (await saveWorkflowDefinition(database.db, validated.definition)).versionId;
  });
  afterAll(async () => {
    await fake.close();
    await store.close();
    await database.dispose();
  });

  it("makes no model request, writes no live preview or ledger row for the finished run, and says 'lease lost' once", async () => {
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "Write a JSON object" });
    // The paused worker stops itself with the call recorded in the ledger and its request not yet sent.
    const paused = spawnWorker({ DATABASE_URL: database.url, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: "fake-model", DUALSTATE_TEST_PAUSE_AT: "model-calling:1" });
    try {
      const pid = Number(await until(async () => /paused at model-calling \(pid (\d+)\)/.exec(paused.output())?.[1]));
      expect(fake.count).toBe(0);

      // Its lease (1 s) expires; a healthy worker reclaims the run, makes the call and finishes the run.
      const healthy = new RunWorker(new DurableStore(openSqlClient(database.url)), createDoorbell(database.url), {
        leaseMs: 1_000,
        escalationTimeoutMs: 60_000,
        maxRetries: 3,
        compile: { endpoint: { baseURL: fake.baseURL, apiKey: "test", model: "fake-model" } },
        pollMs: 50,
        watchdogIntervalMs: 100,
      });
      healthy.start();
      const finished = await until(async () => {
        const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
        return run.status === "succeeded" ? run : undefined;
      });
      await healthy.stop(1_000);
      expect(finished.watchdogNote).toMatch(/expired at epoch 1; reclaimed as epoch 2/);
      expect(fake.count).toBe(1);
      const ledgerBefore = await database.db.ledgerEntry.count({ where: { runId } });

      // The paused worker resumes at the very instruction it stopped at: just before its request.
      process.kill(pid, "SIGCONT");
      await until(async () => (paused.output().includes("lease lost") ? true : undefined), 15_000);
      // Time for anything it would still do: a request, a streamed preview, a commit.
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      expect(fake.count, paused.output()).toBe(1);
      expect(await database.db.liveCall.findUnique({ where: { runId } })).toBeNull();
      expect(await database.db.ledgerEntry.count({ where: { runId } })).toBe(ledgerBefore);
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect(run).toMatchObject({ status: "succeeded", epoch: finished.epoch, finishedAt: finished.finishedAt });
      expect(occurrences(paused.output(), "lease lost")).toBe(1);
    } finally {
      const pid = /paused at model-calling \(pid (\d+)\)/.exec(paused.output())?.[1];
      if (pid) process.kill(Number(pid), "SIGCONT");
      paused.process.kill("SIGTERM");
      await paused.exited;
    }
  }, 60_000);
});

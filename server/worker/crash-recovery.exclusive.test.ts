import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../testing/fake-openai-server";
import { validateWorkflowDocument } from "../workflows/definition";
import { spawnWorker } from "./testing/spawn-worker";

// Two steps, three model calls: the tests pass at once; the implementation's first attempt has
// a syntax error, the second (asked with the guard's feedback) is right.
const WORKFLOW = `
name: crash-recovery
specification: A function that adds two numbers
language: python
state_machine:
  states: [writing_tests, implementing, done]
  initial_state: writing_tests
  final_states: [done]
  transitions:
    - { from: writing_tests, to: implementing, condition: g_test }
    - { from: implementing, to: done, condition: g_impl }
steps:
  - name: write_tests
    in_state: writing_tests
    guard_id: g_test
    generator: { kind: openai, model: fake-model }
    prompt: "Write pytest tests for {specification}"
    guards: [{ kind: syntax }]
  - name: implement
    in_state: implementing
    guard_id: g_impl
    generator: { kind: openai, model: fake-model }
    prompt: "Implement {specification}"
    guards: [{ kind: syntax }]
    guard_artifact_deps: [g_test]
`;

function reply(body: Record<string, unknown>): string {
  const prompt = JSON.stringify(body.messages);
  if (prompt.includes("Write pytest tests")) return "```python\ndef test_add():\n    assert add(1, 2) == 3\n```";
  if (prompt.includes("GUARD REJECTION")) return "```python\ndef add(a, b):\n    return a + b\n```";
  return "```python\ndef add(a, b:\n    return a + b\n```";
}

const POINTS = ["model-returned", "model-recorded", "guard-returned"] as const;
const CASES = POINTS.flatMap((point) => [1, 2, 3].map((nth) => [point, nth] as const));
const providers = TEST_PROVIDERS;

describe.each(providers)("kill -9 at each ledger boundary, then another worker (%s)", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let fake: FakeOpenAiServer;
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    fake = await startFakeOpenAiServer();
    fake.setResponder(reply);
    const validated = validateWorkflowDocument(WORKFLOW, "crash-recovery.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    versionId = (await saveWorkflowDefinition(database.db, validated.definition)).versionId;
  });
  afterAll(async () => {
    await fake.close();
    await store.close();
    await database.dispose();
  });

  it.each(CASES)("killed at %s #%i: the run completes, each recorded call made once, nothing lost or doubled", async (point, nth) => {
    const env = { DATABASE_URL: database.url, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: "fake-model" };
    const requestsBefore = fake.count;
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "A function that adds two numbers" });

    const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: `${point}:${nth}` });
    // tsx runs the script in a child and exits 128 + 9 when that child is killed with SIGKILL.
    expect([137, "SIGKILL"], doomed.output()).toContain(await doomed.exited);
    const crashed = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(crashed.status).toBe("running");

    const successor = spawnWorker(env);
    try {
      let run = crashed;
      for (let i = 0; i < 300 && run.status !== "succeeded" && run.status !== "failed"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      }
      expect(run.status, successor.output()).toBe("succeeded");
      expect(run.watchdogNote).toMatch(/expired at epoch 1; reclaimed as epoch 2/);
      expect(run.epoch).toBe(3); // claimed (1), reclaimed by the watchdog (2), claimed again (3)
    } finally {
      successor.process.kill("SIGTERM");
      await successor.exited;
    }

    const ledger = await database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((_, index) => index + 1));
    const count = (type: string) => ledger.filter((entry) => entry.type === type).length;
    expect(count("action_result")).toBe(3);
    expect(count("generator.completed")).toBe(3);
    expect(count("guard.completed")).toBe(3);
    expect(count("state.advanced")).toBe(2);
    expect(count("run.started")).toBe(1);
    expect(count("run.finished")).toBe(1);
    // Rows carry the epoch that wrote them: the killed turn's (1) and its successor's (3), nothing else.
    expect(ledger.every((entry) => entry.epoch === 1 || entry.epoch === 3)).toBe(true);
    expect(ledger.at(-1)?.epoch).toBe(3);

    // Each recorded call reached the model once; only a call whose result the crash lost is asked again.
    const made = fake.count - requestsBefore;
    expect(made).toBe(point === "model-returned" ? 4 : 3);

    const artifacts = await database.db.artifact.findMany({ where: { runId }, orderBy: { createdAt: "asc" } });
    expect(artifacts.map((artifact) => `${artifact.stepName}#${artifact.attempt}:${artifact.passed}`).sort()).toEqual(["implement#1:false", "implement#2:true", "write_tests#1:true"]);
    const inbox = await database.db.inboxMessage.findMany({ where: { runId } });
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ kind: "start", status: "done", retryCount: 1, epoch: 3 });
  }, 60_000);
});

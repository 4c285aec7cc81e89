import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../testing/fake-openai-server";
import { validateWorkflowDocument } from "../workflows/definition";
import { spawnWorker } from "./testing/spawn-worker";

// One action pair judged by an LLM. The judge passes the first time it is asked and fails any
// later time, so a successor that asked again would end the run differently.
const WORKFLOW = `
name: judge-crash-recovery
specification: A function that adds two numbers
language: javascript
state_machine:
  states: [writing, done]
  initial_state: writing
  final_states: [done]
  transitions:
    - { from: writing, to: done, condition: g_add }
steps:
  - name: write
    in_state: writing
    guard_id: g_add
    generator: { kind: openai, model: fake-model }
    prompt: "Implement {specification}"
    max_retries: 0
    guards: [{ kind: llm_judge, rubric: "The function is named add." }]
`;

// After the judge's answer is recorded (the second recorded call), and after the guard returned but before its verdict was kept.
const CASES = [
  ["model-recorded", 2],
  ["guard-returned", 1],
] as const;

describe.each(TEST_PROVIDERS)("kill -9 after the llm_judge answered, then another worker (%s)", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let fake: FakeOpenAiServer;
  let versionId: string;
  let judgeRequests = 0;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    fake = await startFakeOpenAiServer();
    fake.setResponder((body) => {
      if (!JSON.stringify(body.messages).includes("# RUBRIC")) return "```javascript\nfunction add(a, b) {\n  return a + b;\n}\n```";
      judgeRequests++;
      return judgeRequests === 1 ? '{"passed": true, "feedback": "named add"}' : '{"passed": false, "feedback": "asked again"}';
    });
    const validated = validateWorkflowDocument(WORKFLOW, "judge-crash-recovery.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    versionId = (await saveWorkflowDefinition(database.db, validated.definition)).versionId;
  });
  afterAll(async () => {
    await fake.close();
    await store.close();
    await database.dispose();
  });

  it.each(CASES)("killed at %s #%i: the successor replays the judge's answer, which was asked once", async (point, nth) => {
    judgeRequests = 0;
    const env = { DATABASE_URL: database.url, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: "judge-model" };
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "A function that adds two numbers" });

    // Exits when idle, so a worker that never reaches the crash point fails the test at once.
    const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: `${point}:${nth}`, DUALSTATE_TEST_EXIT_WHEN_IDLE_MS: "3000" });
    expect([137, "SIGKILL"], doomed.output()).toContain(await doomed.exited);
    expect(judgeRequests).toBe(1);

    const successor = spawnWorker(env);
    try {
      let run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      for (let i = 0; i < 300 && run.status !== "succeeded" && run.status !== "failed"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      }
      expect(run.status, successor.output()).toBe("succeeded");
    } finally {
      successor.process.kill("SIGTERM");
      await successor.exited;
    }
    expect(judgeRequests).toBe(1);

    const ledger = await database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    const judged = ledger.filter((entry) => entry.callKey === "result:write/attempt-1/guard/judge");
    expect(judged).toHaveLength(1);
    expect(judged[0]?.payload).toMatchObject({ content: '{"passed": true, "feedback": "named add"}' });
    expect(ledger.filter((entry) => entry.type === "guard.completed").map((entry) => entry.payload)).toEqual([expect.objectContaining({ passed: true })]);
  }, 60_000);
});

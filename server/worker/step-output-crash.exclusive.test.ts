import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../testing/fake-openai-server";
import type { StepDefinition, WorkflowDefinition } from "../workflows/definition";
import { spawnWorker } from "./testing/spawn-worker";

// Two llm steps: the second's prompt is built from the first's answer. Written as the canonical
// definition the loader produces ({steps.NAME.output} and {run_id} are accepted there).
const llm = (name: string, state: string, task: string, next: string): StepDefinition => ({ name, type: "llm", in_state: state, prompt: { task }, max_retries: 0, on_failure: "fail", transition_to: next });
const DEFINITION: WorkflowDefinition = {
  name: "step-output-crash",
  language: "python",
  default_on_failure: "fail",
  default_max_retries: 0,
  context: {},
  components: [],
  state_machine: { states: ["observing", "probing", "done"], initial_state: "observing", final_states: ["done"], transitions: [] },
  steps: [llm("observe", "observing", "Observe the repository", "probing"), llm("probe", "probing", "You saw: <<{steps.observe.output}>> (run {run_id}, last <<{last_output}>>)", "done")],
};

const OBSERVATION = "Three files and no tests";

function reply(body: Record<string, unknown>): string {
  return JSON.stringify(body.messages).includes("Observe the repository") ? OBSERVATION : "noted";
}

describe.each(TEST_PROVIDERS)("an llm output feeding a later prompt survives kill -9 (%s)", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let fake: FakeOpenAiServer;
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    fake = await startFakeOpenAiServer();
    fake.setResponder(reply);
    versionId = (await saveWorkflowDefinition(database.db, DEFINITION)).versionId;
  });
  afterAll(async () => {
    await fake.close();
    await store.close();
    await database.dispose();
  });

  // #1: observe's answer is recorded, the worker dies before its step completes; #2: the same for probe.
  it.each([1, 2])("killed after model call #%i was recorded: the successor replays it, the later prompt has the earlier answer, no call is made twice", async (nth) => {
    const env = { DATABASE_URL: database.url, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: "fake-model" };
    const requestsBefore = fake.requests.length;
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "Look around" });

    const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: `model-recorded:${nth}` });
    expect([137, "SIGKILL"], doomed.output()).toContain(await doomed.exited);

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

    const requests = fake.requests.slice(requestsBefore).map((request) => JSON.stringify(request.messages));
    expect(requests).toHaveLength(2);
    expect(requests[1]).toContain(`You saw: <<${OBSERVATION}>> (run ${runId}, last <<${OBSERVATION}>>)`);

    const ledger = await database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    const completed = ledger.filter((entry) => entry.type === "step.completed").map((entry) => entry.payload as { step: string; output: string; artifactId: string });
    expect(completed.map((entry) => [entry.step, entry.output])).toEqual([
      ["observe", OBSERVATION],
      ["probe", "noted"],
    ]);
    const artifacts = await database.db.artifact.findMany({ where: { runId }, orderBy: { createdAt: "asc" } });
    expect(artifacts.map((artifact) => [artifact.id, artifact.stepName, artifact.stepKind, artifact.content]).sort()).toEqual(
      completed.map((entry) => [entry.artifactId, entry.step, "llm", entry.output]).sort(),
    );
  }, 60_000);
});

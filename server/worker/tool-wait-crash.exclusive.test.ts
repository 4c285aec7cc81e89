import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply } from "../testing/fake-openai-server";
import { validateWorkflowDocument } from "../workflows/definition";
import { spawnWorker, type SpawnedWorker } from "./testing/spawn-worker";

// An agent step that asks an outside system (an external tool) to deploy a preview and waits for
// its report, then answers with the code. Two model calls: the one that calls the tool, the final one.
const WORKFLOW = `
name: deploy-then-write
specification: A function that returns the preview's URL
language: python
tools:
  deploy_preview:
    kind: external
    description: Deploy a preview of the code; the URL is reported when it is up
    input_schema: { type: object, properties: { code: { type: string } }, required: [code] }
    timeout: 1h
state_machine:
  states: [implementing, done]
  initial_state: implementing
  final_states: [done]
  transitions: [{ from: implementing, to: done, condition: g_impl }]
steps:
  - name: implement
    in_state: implementing
    guard_id: g_impl
    generator: { kind: agent, model: fake-model, tools: [deploy_preview] }
    prompt: "Implement {specification}"
    guards: [{ kind: syntax }]
`;

function reply(body: Record<string, unknown>): FakeReply {
  const messages = body.messages as { role: string; content?: string }[];
  const report = messages.find((message) => message.role === "tool");
  if (!report) return { toolCalls: [{ name: "deploy_preview", arguments: JSON.stringify({ code: "def url(): ..." }), id: "call_1" }] };
  return `\`\`\`python\ndef url():\n    return ${JSON.stringify(JSON.parse(report.content ?? "{}").url ?? "none")}\n\`\`\``;
}

describe.each(TEST_PROVIDERS)("kill -9 around a tool that waits (%s)", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let fake: FakeOpenAiServer;
  let versionId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    fake = await startFakeOpenAiServer();
    fake.setResponder(reply);
    const validated = validateWorkflowDocument(WORKFLOW, "deploy-then-write.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    versionId = (await saveWorkflowDefinition(database.db, validated.definition)).versionId;
    env = { DATABASE_URL: database.url, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: "fake-model" };
  });
  afterAll(async () => {
    await fake.close();
    await store.close();
    await database.dispose();
  });

  const poll = async <T>(read: () => Promise<T | undefined>, what: string, worker?: SpawnedWorker): Promise<T> => {
    for (let i = 0; i < 400; i++) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}\n${worker?.output() ?? ""}`);
  };
  const statusIs = (runId: string, statuses: string[], worker?: SpawnedWorker) =>
    poll(async () => {
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return statuses.includes(run.status) ? run : undefined;
    }, `run ${runId} to be ${statuses.join("/")}`, worker);

  async function stop(worker: SpawnedWorker): Promise<void> {
    worker.process.kill("SIGTERM");
    await worker.exited;
  }

  async function expectKilled(worker: SpawnedWorker): Promise<void> {
    // tsx runs the script in a child and exits 128 + 9 when that child is killed with SIGKILL.
    expect([137, "SIGKILL"], worker.output()).toContain(await worker.exited);
  }

  /** After the report the run finishes: each model call made once, the tool's result recorded once, a record per turn. */
  async function reportAndFinish(runId: string, requestsBefore: number, crashInResume: boolean): Promise<void> {
    const wait = await database.db.toolWait.findFirstOrThrow({ where: { runId } });
    expect(wait).toMatchObject({ status: "waiting", tool: "deploy_preview", kind: "external" });
    const outcome = await store.reportToolResult({ runId, callId: wait.id, result: { url: "https://preview.example/42" }, reportedBy: "ci" });
    expect(outcome).toEqual({ applied: true, resumed: true, remaining: 0 });
    if (crashInResume) {
      // Killed in the resumed turn, just before its first new model call is sent.
      const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: "model-calling:1" });
      await expectKilled(doomed);
    }
    const successor = spawnWorker(env);
    try {
      const run = await statusIs(runId, ["succeeded", "failed"], successor);
      expect(run.status, successor.output()).toBe("succeeded");
    } finally {
      await stop(successor);
    }
    expect(fake.count - requestsBefore).toBe(2);
    const keys = fake.idempotencyKeys.slice(requestsBefore);
    expect(new Set(keys).size).toBe(2);
    const artifact = await database.db.artifact.findFirstOrThrow({ where: { runId, passed: true } });
    expect(artifact.content).toContain("https://preview.example/42");
    const ledger = await database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((_, index) => index + 1));
    expect(ledger.filter((entry) => entry.callKey === `result:${wait.callKey}`)).toHaveLength(1);
    expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
    const turns = await database.db.turnRecord.findMany({ where: { runId }, orderBy: { epoch: "asc" } });
    const epochs = turns.map((turn) => turn.epoch);
    expect(new Set(epochs).size, "one record per turn").toBe(epochs.length);
    expect(turns.at(-1)).toMatchObject({ kind: "report", outcome: "succeeded" });
  }

  it("killed between the tool call and its suspension: the successor suspends on the same call, the report resumes it", async () => {
    const before = fake.count;
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "A function that returns the preview's URL" });
    // Call 1 is the model's, call 2 the tool's: killed with the tool call in the ledger and no suspension yet.
    const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: "model-calling:2" });
    await expectKilled(doomed);
    const successor = spawnWorker(env);
    try {
      await statusIs(runId, ["suspended"], successor);
      await poll(async () => ((await database.db.toolWait.count({ where: { runId } })) === 1 ? true : undefined), "the waiting call", successor);
    } finally {
      await stop(successor);
    }
    expect(fake.count - before).toBe(1);
    const turns = await database.db.turnRecord.findMany({ where: { runId }, orderBy: { epoch: "asc" } });
    expect(turns.map((turn) => turn.outcome)).toEqual(["lost", "suspended"]);
    await reportAndFinish(runId, before, false);
  }, 120_000);

  it("killed right after committing the suspension: nothing is lost, and the report resumes the run on another worker", async () => {
    const before = fake.count;
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "A function that returns the preview's URL" });
    const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: "tools-waiting:1" });
    await expectKilled(doomed);
    const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: "suspended", waitingToolCount: 1, leaseOwner: null });
    await reportAndFinish(runId, before, false);
  }, 120_000);

  it("killed between the report and the resume: the successor replays the tool's result and asks the model once", async () => {
    const before = fake.count;
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "A function that returns the preview's URL" });
    const first = spawnWorker(env);
    try {
      await statusIs(runId, ["suspended"], first);
    } finally {
      await stop(first);
    }
    await reportAndFinish(runId, before, true);
    const turns = await database.db.turnRecord.findMany({ where: { runId }, orderBy: { epoch: "asc" } });
    expect(turns.map((turn) => `${turn.kind ?? "-"}:${turn.outcome}`)).toEqual(["start:suspended", "report:lost", "report:succeeded"]);
  }, 120_000);
});

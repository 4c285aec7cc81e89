import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createTestDatabase, type TestDatabase, TEST_PROVIDERS } from "../persistence/testing/test-database";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../testing/fake-openai-server";
import { validateWorkflowDocument } from "../workflows/definition";
import { createDoorbell } from "../durable/doorbell";
import { RunWorker } from "./run-worker";
import { spawnWorker } from "./testing/spawn-worker";
import { until } from "../testing/until";

// One step whose generator either waits on a model that never answers (timeout_ms: 10 minutes)
// or, with a replay override, on a cassette's longest allowed delay.
const WORKFLOW = `
name: bounded
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
    generator: { kind: openai, model: fake-model, timeout_ms: 600000, extract: text }
    prompt: "Write a JSON object"
    guards: [{ kind: json_schema, schema: { type: object } }]
`;
const slowReplay = { kind: "replay", cassette: { steps: { write: [{ content: '{"a": 1}', delay_ms: 60_000 }] } } };
const quickReplay = { kind: "replay", cassette: { steps: { write: ['{"a": 1}'] } } };

const providers = TEST_PROVIDERS;

describe.each(providers)("no workflow stalls a worker (%s)", (provider) => {
  let database: TestDatabase;
  let store: DurableStore;
  let fake: FakeOpenAiServer;
  let versionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
    fake = await startFakeOpenAiServer();
    const validated = validateWorkflowDocument(WORKFLOW, "bounded.yaml");
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    versionId = (await saveWorkflowDefinition(database.db, validated.definition)).versionId;
  });
  afterAll(async () => {
    await fake.close();
    await store.close();
    await database.dispose();
  });

  const runOf = (runId: string) => database.db.run.findUniqueOrThrow({ where: { id: runId } });
  const reaches = (runId: string, statuses: readonly string[], timeoutMs?: number) =>
    until(async () => {
      const run = await runOf(runId);
      return statuses.includes(run.status) ? run : undefined;
    }, timeoutMs);
  const ledgerOf = (runId: string) => database.db.ledgerEntry.findMany({ where: { runId }, orderBy: { seq: "asc" } });
  /** The turn is inside its replay or model call: the call is in the ledger, its result is not. */
  const waitingOnCall = (runId: string) => until(async () => ((await ledgerOf(runId)).some((entry) => entry.type === "action_call") ? true : undefined));

  describe("cancel reaches a turn that holds a worker slot", () => {
    let worker: RunWorker;
    beforeAll(() => {
      const env = { baseURL: fake.baseURL, apiKey: "test", model: "fake-model" };
      worker = new RunWorker(store, createDoorbell(database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: { endpoint: env }, concurrency: 2, pollMs: 100 });
      worker.start();
    });
    afterAll(() => worker.stop(1_000));

    it("two runs in 60-second replay delays hold both slots; cancelled, both end within about a second and the slots run the next run", async () => {
      const slow = await Promise.all([1, 2].map(() => store.enqueueRun({ workflowVersionId: versionId, specification: "x", generatorOverride: slowReplay })));
      for (const { runId } of slow) await waitingOnCall(runId);
      const { runId: next } = await store.enqueueRun({ workflowVersionId: versionId, specification: "x", generatorOverride: quickReplay });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await runOf(next)).status).toBe("queued"); // both slots are taken

      const started = performance.now();
      for (const { runId } of slow) expect(await store.requestCancel(runId, "stop waiting")).toBe(true);
      for (const { runId } of slow) {
        const run = await reaches(runId, ["cancelled"], 10_000);
        expect(run.finalResult).toMatchObject({ status: "failed", reason: "Cancelled: stop waiting" });
      }
      const elapsed = performance.now() - started;
      console.log(`[${provider}] two runs cancelled during 60 s replay delays in ${Math.round(elapsed)} ms`);
      expect(elapsed).toBeLessThan(5_000); // about a second (the cancel watch polls every 500 ms); roomy for a loaded machine

      for (const { runId } of slow) {
        const ledger = await ledgerOf(runId);
        // The interrupted replay left no result behind, and the run ended exactly once.
        expect(ledger.filter((entry) => entry.type === "action_result")).toHaveLength(0);
        expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
        expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((_, index) => index + 1));
      }
      expect((await reaches(next, ["succeeded", "failed"])).status).toBe("succeeded");
    });

    it("a turn whose run was taken over (its lease lost) stops at its next heartbeat instead of holding the slot", async () => {
      const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "x", generatorOverride: slowReplay });
      const { runId: other } = await store.enqueueRun({ workflowVersionId: versionId, specification: "x", generatorOverride: slowReplay });
      await waitingOnCall(runId);
      await waitingOnCall(other); // both slots are busy
      const { runId: next } = await store.enqueueRun({ workflowVersionId: versionId, specification: "x", generatorOverride: quickReplay });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await runOf(next)).status).toBe("queued");
      const held = await runOf(runId);
      // Another turn takes the run over: a new epoch and turn, as the watchdog's reclaim does.
      await database.db.run.update({ where: { id: runId }, data: { epoch: held.epoch + 1, activeTurnId: "someone-else" } });
      const started = performance.now();
      expect((await reaches(next, ["succeeded", "failed"], 15_000)).status).toBe("succeeded");
      console.log(`[${provider}] a slot held by a turn that lost its lease was free again after ${Math.round(performance.now() - started)} ms (lease 5 s, heartbeat every 1.7 s)`);
      // The stopped turn wrote nothing after the takeover.
      expect((await ledgerOf(runId)).filter((entry) => entry.epoch > held.epoch)).toHaveLength(0);
      expect((await ledgerOf(runId)).filter((entry) => entry.type === "action_result")).toHaveLength(0);
      await store.requestCancel(other, "done");
      await reaches(other, ["cancelled"], 10_000);
    });

    it("a run waiting on a model that never answers (timeout_ms 10 minutes) is cancelled within about a second", async () => {
      fake.setReplies([{ fault: "hang" }]);
      const before = fake.count;
      const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "x" });
      await waitingOnCall(runId);
      await until(async () => (fake.count > before ? true : undefined));
      const started = performance.now();
      await store.requestCancel(runId, "model too slow");
      const run = await reaches(runId, ["cancelled"], 10_000);
      const elapsed = performance.now() - started;
      console.log(`[${provider}] run cancelled during a hanging model call in ${Math.round(elapsed)} ms`);
      expect(elapsed).toBeLessThan(5_000);
      expect(run.finalResult).toMatchObject({ reason: "Cancelled: model too slow" });
      // The aborted call is not recorded as the call's result (a failed call would be).
      expect((await ledgerOf(runId)).filter((entry) => entry.type === "action_result")).toHaveLength(0);
      expect(fake.count - before).toBe(1);
    });
  });

  it("SIGTERM drains a worker process within DUALSTATE_DRAIN_SECONDS; its stopped turn goes back to the inbox and another worker finishes the run", async () => {
    let calls = 0;
    // The first call never answers (the doomed worker waits on it); later ones answer at once.
    fake.setResponder(() => (++calls === 1 ? { fault: "hang" } : '{"a": 1}'));
    const env = { DATABASE_URL: database.url, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test", OPENAI_MODEL: "fake-model", DUALSTATE_LEASE_SECONDS: "5", DUALSTATE_DRAIN_SECONDS: "1" };
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "x" });
    const draining = spawnWorker(env);
    await until(async () => (calls >= 1 ? true : undefined));

    const started = performance.now();
    draining.process.kill("SIGTERM");
    expect(await draining.exited, draining.output()).toBe(0);
    const elapsed = performance.now() - started;
    console.log(`[${provider}] SIGTERM with a turn stuck on a model call: exited in ${Math.round(elapsed)} ms (drain 1 s)`);
    expect(elapsed).toBeLessThan(12_000); // drain 1 s + the stop grace (5 s at most), roomy
    const handedBack = await runOf(runId);
    expect(handedBack.status, draining.output()).toBe("queued");
    expect(handedBack.leaseOwner).toBeNull();
    const [message] = await database.db.inboxMessage.findMany({ where: { runId } });
    expect(message).toMatchObject({ status: "deferred", retryCount: 0, deferReason: expect.stringMatching(/shut down during the turn/) as unknown });

    const successor = spawnWorker(env);
    try {
      expect((await reaches(runId, ["succeeded", "failed"])).status, successor.output()).toBe("succeeded");
    } finally {
      successor.process.kill("SIGTERM");
      await successor.exited;
    }
    expect(calls).toBe(2); // the stopped call was made again, once
    const ledger = await ledgerOf(runId);
    expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
    expect(ledger.filter((entry) => entry.type === "action_result")).toHaveLength(1);
  }, 60_000);

  it("a run that kills its worker every time is given up after 3 crashes, with the reason, instead of claimed forever", async () => {
    // A lease long enough that a loaded machine never lets a live worker's own lease expire.
    const env = { DATABASE_URL: database.url, DUALSTATE_LEASE_SECONDS: "3" };
    const { runId } = await store.enqueueRun({ workflowVersionId: versionId, specification: "x", generatorOverride: quickReplay });
    for (let crash = 1; crash <= 3; crash++) {
      // Each worker reclaims the previous one's expired lease, claims the run and dies mid-turn (SIGKILL).
      const doomed = spawnWorker({ ...env, DUALSTATE_TEST_CRASH_AT: "model-returned:1" });
      expect([137, "SIGKILL"], doomed.output()).toContain(await doomed.exited);
      expect((await runOf(runId)).status, doomed.output()).toBe("running");
    }
    const survivor = spawnWorker(env);
    try {
      const run = await reaches(runId, ["succeeded", "failed"]);
      expect(run.status, survivor.output()).toBe("failed");
      expect(run.finalResult).toMatchObject({ status: "failed", reason: expect.stringMatching(/^Given up: the run's worker crashed 3 times while executing it/) as unknown });
    } finally {
      survivor.process.kill("SIGTERM");
      await survivor.exited;
    }
    const ledger = await ledgerOf(runId);
    expect(ledger.filter((entry) => entry.type === "run.finished")).toHaveLength(1);
    expect(ledger.filter((entry) => entry.type === "action_call")).toHaveLength(3); // one per crashed claim, none after
    const [message] = await database.db.inboxMessage.findMany({ where: { runId } });
    expect(message).toMatchObject({ status: "done", retryCount: 3 });
  }, 120_000);
});

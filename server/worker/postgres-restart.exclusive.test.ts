import { execSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testPostgresUrl, type TestDatabase } from "../persistence/testing/test-database";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { CHEAP_CASSETTE, cheapWorkflow } from "./testing/cheap-workflow";
import { spawnWorker, type SpawnedWorker } from "./testing/spawn-worker";

/**
 * TEST_POSTGRES_RESTART is the command that restarts the server behind TEST_POSTGRES_URL
 * (.ci/run sets it, e.g. "pg_ctlcluster 15 main restart"). Without it, every connection to the
 * test database is terminated instead, which is what a restart looks like from the workers.
 */
const restartCommand = process.env.TEST_POSTGRES_RESTART;
const RUNS = 200;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries a query through the outage the test itself causes. */
async function retrying<T>(query: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await query();
    } catch (error) {
      if (attempt >= 100) throw error;
      await pause(200);
    }
  }
}

describe.skipIf(!testPostgresUrl)(`PostgreSQL ${restartCommand ? "restarted" : "dropping every connection"} during runs`, () => {
  let database: TestDatabase;
  let store: DurableStore;
  let workers: SpawnedWorker[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    store = new DurableStore(openSqlClient(database.url));
  });
  afterAll(async () => {
    for (const worker of workers) worker.process.kill("SIGTERM");
    await Promise.all(workers.map((worker) => worker.exited));
    await store.close();
    await retrying(() => database.dispose());
  });

  it("workers reconnect and every run completes exactly once", async () => {
    const { versionId } = await saveWorkflowDefinition(database.db, cheapWorkflow());
    for (let i = 0; i < RUNS; i++) await store.enqueueRun({ workflowVersionId: versionId, specification: `run ${i}`, generatorOverride: { kind: "replay", cassette: CHEAP_CASSETTE } });
    workers = [1, 2].map((n) => spawnWorker({ DATABASE_URL: database.url, DUALSTATE_LEASE_SECONDS: "2", DUALSTATE_WORKER_CONCURRENCY: "2", DUALSTATE_TEST_WORKER_ID: `worker-${n}` }));

    const done = () => retrying(() => database.db.run.count({ where: { status: "succeeded" } }));
    while ((await done()) < 10) await pause(20);
    const openAtOutage = RUNS - (await done());
    if (restartCommand) {
      execSync(restartCommand, { stdio: "ignore" });
    } else {
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
      await admin.end();
    }
    expect(openAtOutage).toBeGreaterThan(0);

    let finished = 0;
    for (let i = 0; i < 900 && finished < RUNS; i++) {
      await pause(200);
      finished = await retrying(() => database.db.run.count({ where: { status: { in: ["succeeded", "failed", "cancelled"] } } }));
    }
    expect(finished, workers.map((worker) => worker.output()).join("\n")).toBe(RUNS);
    expect(await retrying(() => database.db.run.count({ where: { status: "succeeded" } }))).toBe(RUNS);
    const finishedEntries = await retrying(() => database.db.ledgerEntry.groupBy({ by: ["runId"], where: { type: "run.finished" }, _count: { _all: true } }));
    expect(finishedEntries.filter((group) => group._count._all !== 1)).toEqual([]);
    expect(finishedEntries).toHaveLength(RUNS);
    const seqs = await retrying(() => database.db.ledgerEntry.groupBy({ by: ["runId"], _count: { _all: true }, _max: { seq: true } }));
    expect(seqs.filter((group) => group._max.seq !== group._count._all)).toEqual([]);
    const verdicts = await retrying(() => database.db.ledgerEntry.groupBy({ by: ["runId"], where: { type: "guard.completed" }, _count: { _all: true } }));
    expect(verdicts.filter((group) => group._count._all !== 3)).toEqual([]);
  }, 240_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testPostgresUrl, type TestDatabase } from "../persistence/testing/test-database";
import { DurableStore } from "../durable/durable-store";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { saveWorkflowDefinition } from "../services/workflows/save-definition";
import { CHEAP_CASSETTE as CASSETTE, cheapWorkflow } from "./testing/cheap-workflow";
import { spawnWorker, type SpawnedWorker } from "./testing/spawn-worker";

const setups = [
  { provider: "sqlite" as const, processes: 2, runs: 500, enabled: true },
  { provider: "postgres" as const, processes: 4, runs: 500, enabled: Boolean(testPostgresUrl) },
].filter((setup) => setup.enabled);

describe.each(setups)("$processes worker processes on $provider, $runs runs", ({ provider, processes, runs }) => {
  let database: TestDatabase;
  let store: DurableStore;
  let workers: SpawnedWorker[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    store = new DurableStore(openSqlClient(database.url));
  });
  afterAll(async () => {
    for (const worker of workers) worker.process.kill("SIGTERM");
    await Promise.all(workers.map((worker) => worker.exited));
    await store.close();
    await database.dispose();
  });

  it("every run finishes exactly once, no turn runs twice, none is stuck, every worker takes part", async () => {
    const { versionId } = await saveWorkflowDefinition(database.db, cheapWorkflow());
    for (let i = 0; i < runs; i++) {
      await store.enqueueRun({ workflowVersionId: versionId, specification: `run ${i}`, generatorOverride: { kind: "replay", cassette: CASSETTE } });
    }
    workers = Array.from({ length: processes }, (_, index) =>
      spawnWorker({ DATABASE_URL: database.url, DUALSTATE_LEASE_SECONDS: "30", DUALSTATE_WORKER_CONCURRENCY: "2", DUALSTATE_TEST_WORKER_ID: `worker-${index + 1}` }),
    );

    let open = runs;
    for (let i = 0; i < 1200 && open > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      open = await database.db.run.count({ where: { status: { notIn: ["succeeded", "failed", "cancelled"] } } });
    }
    expect(open, workers.map((worker) => worker.output()).join("\n")).toBe(0);

    expect(await database.db.run.count({ where: { status: "succeeded" } })).toBe(runs);
    // Claimed once each: a second turn of a run would have raised its epoch.
    expect(await database.db.run.count({ where: { epoch: { not: 1 } } })).toBe(0);
    expect(await database.db.inboxMessage.count({ where: { NOT: { status: "done", epoch: 1, retryCount: 0 } } })).toBe(0);
    const finished = await database.db.ledgerEntry.groupBy({ by: ["runId"], where: { type: "run.finished" }, _count: { _all: true } });
    expect(finished).toHaveLength(runs);
    expect(finished.every((group) => group._count._all === 1)).toBe(true);
    const verdicts = await database.db.ledgerEntry.groupBy({ by: ["runId"], where: { type: "guard.completed" }, _count: { _all: true } });
    expect(verdicts.every((group) => group._count._all === 3)).toBe(true);
    // Sequence numbers are contiguous in every run: as many entries as the highest seq.
    const seqs = await database.db.ledgerEntry.groupBy({ by: ["runId"], _count: { _all: true }, _max: { seq: true }, _min: { seq: true } });
    expect(seqs.filter((group) => group._min.seq !== 1 || group._max.seq !== group._count._all)).toEqual([]);
    const claimers = await database.db.inboxMessage.groupBy({ by: ["claimedBy"], _count: { _all: true } });
    expect(claimers.map((group) => group.claimedBy).sort()).toEqual(Array.from({ length: processes }, (_, index) => `worker-${index + 1}`));
  }, 240_000);
});

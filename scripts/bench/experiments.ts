/**
 * Experiments benchmark (issue 19): an experiment of BENCH_EXPERIMENT_CASES (default 200) cases
 * × k = 3 replayed from a cassette (no pauses), executed by 1 and by 4 workers on PostgreSQL, next
 * to the durable-run figures above it.
 *
 * Workload: a one-step JavaScript workflow with a syntax guard, whose cassette's first attempt
 * passes: each sample is one replayed generation and one real guard verdict through the real
 * compile path, plus the experiment's own work: the samples written with it, the pump claiming
 * each sample's run in the run's transaction, the outcome copied when the run ends, completion.
 *
 * Timed from createExperiment's call (samples written, first runs started) to the experiment's
 * status reading "completed" (polled every 20 ms). Workers: RunWorker instances in this process,
 * each with its own DurableStore (its own pool) and doorbell, concurrency 1 each; the
 * experiment's concurrency is 4 × the workers. Each worker count gets a fresh database.
 * Figures: wall time, cases per second (cases ÷ wall time; each case is k runs) and runs per second.
 * PostgreSQL is TEST_POSTGRES_URL, or the local server at postgresql://postgres@127.0.0.1:5432/test.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { closeDurableStoreForUrl } from "../../server/durable/store-for-url";
import { createDb, type Db } from "../../server/persistence/db";
import { migrateDatabase } from "../../server/persistence/migrations/migrate";
import { createDoorbell } from "../../server/durable/doorbell";
import { DurableStore } from "../../server/durable/durable-store";
import { openSqlClient } from "../../server/persistence/sql/open-sql-client";
import { createExperiment } from "../../server/services/experiments/create-experiment";
import { insertDataset, saveAddWorkflow } from "../../server/services/experiments/testing/experiment-fixture";
import { RunWorker } from "../../server/worker/run-worker";

const CASES = Number(process.env.BENCH_EXPERIMENT_CASES ?? 200);
const K = 3;
const WORKER_COUNTS = [1, 4] as const;
const CASSETTE = JSON.stringify({ format: "dualstate-cassette/1", steps: { implement: ["function add(a, b) { return a + b; }"] } });

interface ExperimentFigures {
  readonly workers: number;
  readonly wallMs: number;
  readonly casesPerSecond: number;
  readonly runsPerSecond: number;
}

/** A fresh, migrated PostgreSQL database on the server at `serverUrl`, dropped by dispose(). */
async function freshPostgres(serverUrl: string): Promise<{ db: Db; url: string; dispose(): Promise<void> }> {
  const name = `dualstate_bench_${randomUUID().replaceAll("-", "")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  const db = createDb(url.toString());
  return {
    db,
    url: url.toString(),
    async dispose() {
      await closeDurableStoreForUrl(url.toString());
      await db.$disconnect();
      await admin(`DROP DATABASE "${name}" WITH (FORCE)`);
    },
  };
}

async function runOnce(serverUrl: string, workers: number): Promise<ExperimentFigures> {
  const database = await freshPostgres(serverUrl);
  const started: { worker: RunWorker; store: DurableStore }[] = [];
  try {
    const { workflowId } = await saveAddWorkflow(database.db);
    const { datasetId } = await insertDataset(database.db, "bench", Array.from({ length: CASES }, (_, index) => ({ key: `case-${index + 1}` })));
    for (let index = 0; index < workers; index++) {
      const store = new DurableStore(openSqlClient(database.url, { maxConnections: 3 }));
      const doorbell = createDoorbell(database.url);
      store.onMessage = () => doorbell.ring();
      const worker = new RunWorker(store, doorbell, { leaseMs: 30_000, escalationTimeoutMs: 3_600_000, maxRetries: 3, compile: {}, concurrency: 1, pollMs: 200 });
      worker.start();
      started.push({ worker, store });
    }
    const start = performance.now();
    const { id, samples } = await createExperiment(database.db, { workflowId, datasetId, k: K, concurrency: 4 * workers, cassette: CASSETTE }, "bench");
    for (;;) {
      const experiment = await database.db.experiment.findUniqueOrThrow({ where: { id }, select: { status: true } });
      if (experiment.status === "completed") break;
      if (experiment.status !== "queued" && experiment.status !== "running") throw new Error(`bench experiment ended ${experiment.status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const wallMs = performance.now() - start;
    const succeeded = await database.db.experimentSample.count({ where: { experimentId: id, outcome: "succeeded" } });
    if (succeeded !== samples) throw new Error(`bench experiment: ${succeeded} of ${samples} samples succeeded`);
    return { workers, wallMs, casesPerSecond: CASES / (wallMs / 1000), runsPerSecond: samples / (wallMs / 1000) };
  } finally {
    for (const { worker, store } of started) {
      await worker.stop(1_000);
      await store.close();
    }
    await database.dispose();
  }
}

export async function benchExperiments(): Promise<void> {
  const serverUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  console.log(`\nExperiments (issue 19): ${CASES} cases × k=${K} replayed from a cassette on PostgreSQL, 1 and 4 workers (scripts/bench/experiments.ts).`);
  const results: ExperimentFigures[] = [];
  for (const workers of WORKER_COUNTS) {
    console.log(`Running ${workers} worker${workers === 1 ? "" : "s"}...`);
    results.push(await runOnce(serverUrl, workers));
  }
  console.log("");
  console.log(`${"workers".padEnd(8)} ${"wall s".padStart(8)} ${"cases/s".padStart(8)} ${"runs/s".padStart(8)}`);
  for (const result of results) {
    console.log(`${String(result.workers).padEnd(8)} ${(result.wallMs / 1000).toFixed(2).padStart(8)} ${result.casesPerSecond.toFixed(1).padStart(8)} ${result.runsPerSecond.toFixed(1).padStart(8)}`);
  }
}

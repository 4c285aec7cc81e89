import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import pg from "pg";
import type { SqliteSynchronous } from "../../server/persistence/sql/sqlite-client";
import { createTestDatabase, type TestDatabase } from "../../server/persistence/testing/test-database";

/**
 * The database's own limits, measured in the same run as the engine so every figure can be read
 * as a ratio to them: a durable single-row commit (hot, and after the idle a decision follows),
 * and PostgreSQL's commit throughput from several connections at once.
 */

export type Target = { readonly provider: "sqlite"; readonly synchronous: SqliteSynchronous } | { readonly provider: "postgres" };

/**
 * How long the worker sits idle on its doorbell before a decision or a report, as it does while a
 * person reads or an outside system works. On this kind of machine the first statements after an
 * idle cost several times what they cost back to back (CPU wake-up, cold caches, the disk's flush
 * after a pause), so the commit the decision figures are divided by is measured after the same idle.
 */
export const IDLE_BEFORE_DECISION_MS = 20;

/** How long each back-to-back commit measurement runs. */
const COMMIT_BUDGET_MS = 1_500;
/** Commits measured after an idle each: 60 × 20 ms ≈ 1.2 s. */
const IDLE_SAMPLES = 60;

export interface DurableCommit {
  /** Median µs of a durable single-row commit made back to back. */
  readonly hotUs: number;
  /** Median µs of the same commit made after IDLE_BEFORE_DECISION_MS of idle, as a decision's path is. */
  readonly afterIdleUs: number;
}

/**
 * SQLite: BEGIN IMMEDIATE / INSERT / COMMIT on a second connection to the same file with the
 * same synchronous setting. PostgreSQL: an autocommit single-row INSERT on a connection of its own.
 */
export async function durableCommit(target: Target, database: TestDatabase): Promise<DurableCommit> {
  const commitOnce = target.provider === "sqlite" ? sqliteCommitter(database, target.synchronous) : await postgresCommitter(database);
  try {
    for (let i = 0; i < 100; i++) await commitOnce.run();
    const hot: number[] = [];
    const deadline = performance.now() + COMMIT_BUDGET_MS;
    while (performance.now() < deadline) hot.push(await timedUs(commitOnce.run));
    const afterIdle: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i++) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_BEFORE_DECISION_MS));
      afterIdle.push(await timedUs(commitOnce.run));
    }
    return { hotUs: median(hot), afterIdleUs: median(afterIdle) };
  } finally {
    await commitOnce.close();
  }
}

interface Committer {
  run(): Promise<void> | void;
  close(): Promise<void> | void;
}

function sqliteCommitter(database: TestDatabase, synchronous: SqliteSynchronous): Committer {
  const db = new Database(database.url.replace(/^file:/, ""));
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`CREATE TABLE IF NOT EXISTS "BenchCommit" ("id" INTEGER PRIMARY KEY, "note" TEXT NOT NULL)`);
  const begin = db.prepare("BEGIN IMMEDIATE");
  const insert = db.prepare(`INSERT INTO "BenchCommit" ("note") VALUES (?)`);
  const commit = db.prepare("COMMIT");
  return {
    run: () => {
      begin.run();
      insert.run("bench");
      commit.run();
    },
    close: () => {
      db.close();
    },
  };
}

async function postgresCommitter(database: TestDatabase): Promise<Committer> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(`CREATE TABLE IF NOT EXISTS "BenchCommit" ("id" SERIAL PRIMARY KEY, "note" TEXT NOT NULL)`);
  const insert = { name: "bench-commit", text: `INSERT INTO "BenchCommit" ("note") VALUES ($1)`, values: ["bench"] };
  return {
    run: async () => {
      await client.query(insert);
    },
    close: () => client.end(),
  };
}

async function timedUs(work: () => Promise<void> | void): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) * 1000;
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The database's own scaling on this machine: durable single-row autocommit INSERTs from 1, 2
 * and 4 connections at once (each its own pg client, one row per commit, as pgbench would), for
 * COMMIT_BUDGET_MS each, on a fresh database. Commits per second for each connection count: what
 * the server and the disk allow however lean the engine gets, measured in the same run as the
 * workers. Where four connections commit less than ×3 of one, four workers cannot either.
 */
export async function postgresCommitScaling(): Promise<{ connections: number; commitsPerSecond: number }[]> {
  const database = await createTestDatabase("postgres", { migrate: false });
  const results: { connections: number; commitsPerSecond: number }[] = [];
  try {
    const setup = new pg.Client({ connectionString: database.url });
    await setup.connect();
    await setup.query(`CREATE TABLE "BenchCommit" ("id" SERIAL PRIMARY KEY, "note" TEXT NOT NULL)`);
    await setup.end();
    for (const connections of [1, 2, 4]) {
      const clients = await Promise.all(
        Array.from({ length: connections }, async () => {
          const client = new pg.Client({ connectionString: database.url });
          await client.connect();
          return client;
        }),
      );
      try {
        const insert = { name: "bench-commit", text: `INSERT INTO "BenchCommit" ("note") VALUES ($1)`, values: ["bench"] };
        for (const client of clients) for (let i = 0; i < 50; i++) await client.query(insert);
        let commits = 0;
        const started = performance.now();
        const deadline = started + COMMIT_BUDGET_MS;
        await Promise.all(
          clients.map(async (client) => {
            while (performance.now() < deadline) {
              await client.query(insert);
              commits++;
            }
          }),
        );
        results.push({ connections, commitsPerSecond: (commits * 1000) / (performance.now() - started) });
      } finally {
        await Promise.all(clients.map((client) => client.end()));
      }
    }
  } finally {
    await database.dispose();
  }
  return results;
}

import type { Env } from "../env";
import { loadModelDirectoryFromSql } from "../models/load-from-sql";
import { DurableStore } from "../durable/durable-store";
import { cassetteDirectories } from "../services/cassettes/cassette-directories";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createDoorbell } from "../durable/doorbell";
import { RunWorker, type WorkerOptions } from "./run-worker";

/** Turn settings from the environment (docs: README, Configuration). */
export function workerOptionsFromEnv(env: Env, overrides: Partial<WorkerOptions> = {}): WorkerOptions {
  return {
    concurrency: env.DUALSTATE_WORKER_CONCURRENCY,
    leaseMs: env.DUALSTATE_LEASE_SECONDS * 1000,
    escalationTimeoutMs: env.DUALSTATE_ESCALATION_TIMEOUT_HOURS * 3_600_000,
    maxRetries: 5,
    maxCrashes: 3,
    compile: { endpoint: { baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.OPENAI_MODEL }, cassetteDirectories: cassetteDirectories(env) },
    ...overrides,
  };
}

export interface StartedWorker {
  readonly worker: RunWorker;
  readonly store: DurableStore;
  /** Drains (running turns finish, or are stopped and handed back after `drainMs`) and closes the connections. */
  stop(drainMs?: number): Promise<void>;
}

/** A worker on DATABASE_URL with its own connections, started. */
export function startWorker(env: Env, overrides: Partial<WorkerOptions> = {}): StartedWorker {
  const options = workerOptionsFromEnv(env, overrides);
  const sql = openSqlClient(env.DATABASE_URL, { sqliteSynchronous: env.DUALSTATE_SQLITE_SYNCHRONOUS, maxConnections: (options.concurrency ?? 1) + 2 });
  const store = new DurableStore(sql);
  const doorbell = createDoorbell(env.DATABASE_URL);
  store.onMessage = () => doorbell.ring();
  const worker = new RunWorker(store, doorbell, { loadModels: () => loadModelDirectoryFromSql(sql, env), ...options });
  worker.start();
  return {
    worker,
    store,
    async stop(drainMs) {
      await worker.stop(drainMs);
      await doorbell.close();
      await store.close();
    },
  };
}

import type { Env } from "../env";
import { loadModelDirectoryFromSql } from "../models/load-from-sql";
import { DurableStore } from "../durable/durable-store";
import { cassetteDirectories } from "../services/cassettes/cassette-directories";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { createDoorbell } from "../durable/doorbell";
import { RunWorker, type WorkerOptions } from "./run-worker";
import { loadRunTracing } from "../telemetry/tracing-from-env";
import { runCreatedAtFrom } from "../telemetry/run-created-at";
import { metricsEnabled } from "../telemetry/metrics/metrics-settings";
import { WorkerMetrics } from "../telemetry/metrics/worker-metrics";
import { startMetricsPublisher } from "../telemetry/metrics/worker-metrics-store";
import { workerTelemetry } from "../telemetry/worker-telemetry";

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
  // Traces when an OTLP endpoint is configured, durations for /metrics when metrics are on; neither costs anything otherwise.
  const tracing = loadRunTracing(env, { runCreatedAt: runCreatedAtFrom(sql), log: options.log }, options.log);
  const metrics = metricsEnabled(env) ? new WorkerMetrics() : undefined;
  const telemetry = workerTelemetry({ tracing, metrics });
  const worker = new RunWorker(store, doorbell, { loadModels: () => loadModelDirectoryFromSql(sql, env), ...(telemetry ? { telemetry } : {}), ...options });
  worker.start();
  const publisher = metrics ? startMetricsPublisher(sql, worker.workerId, metrics, { log: options.log }) : undefined;
  return {
    worker,
    store,
    async stop(drainMs) {
      await worker.stop(drainMs);
      await publisher?.stop();
      await (await tracing)?.shutdown().catch((error) => options.log?.(`tracing: the last spans were not exported (${error instanceof Error ? error.message : String(error)})`));
      await doorbell.close();
      await store.close();
    },
  };
}

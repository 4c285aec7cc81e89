import type { SqlClient } from "../../persistence/sql/sql-client";
import type { HistogramSeries } from "./exposition";
import type { WorkerMetrics, WorkerMetricsSnapshot } from "./worker-metrics";

/**
 * Workers run in other processes than the web server (`dualstate worker`, and even the embedded
 * worker of `dualstate start` runs beside Next.js, not in it), so each publishes what it
 * measured to a row of the Setting table, which /metrics reads. One row per worker process,
 * rewritten every interval; a stopped worker deletes its own, a crashed one's is ignored once
 * stale and deleted by the next worker that notices.
 */
export const WORKER_METRICS_KEY_PREFIX = "worker-metrics:";
export const WORKER_METRICS_INTERVAL_MS = 15_000;
/** A snapshot older than this is a worker that stopped without saying so: not shown. */
export const WORKER_METRICS_STALE_MS = 5 * 60_000;
/** At most this many worker rows are read (a scrape stays bounded whatever the table holds). */
export const WORKER_METRICS_MAX_ROWS = 256;
const PRUNE_AFTER_MS = 60 * 60_000;
const PRUNE_EVERY = 20;

export interface MetricsPublisher {
  /** Publishes now (tests, and the last one before stopping). */
  publish(): Promise<void>;
  /** Stops publishing and deletes this worker's row. */
  stop(): Promise<void>;
}

export function startMetricsPublisher(
  sql: SqlClient,
  workerId: string,
  metrics: WorkerMetrics,
  options: { intervalMs?: number; log?: (line: string) => void; clock?: () => Date } = {},
): MetricsPublisher {
  const key = `${WORKER_METRICS_KEY_PREFIX}${workerId}`;
  const clock = options.clock ?? (() => new Date());
  let publishes = 0;
  const publish = async () => {
    const snapshot = metrics.snapshot(workerId, clock());
    // Losing a snapshot in a crash costs nothing (the next one replaces it), so no commit waits for the disk.
    await sql.queryWithoutWaitingForDisk(`INSERT INTO "Setting" ("key", "value") VALUES (?, ?) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value" RETURNING "key"`, [key, JSON.stringify(snapshot)]);
    if (++publishes % PRUNE_EVERY === 1) await pruneStale(sql, clock().getTime());
  };
  const timer = setInterval(() => void publish().catch((error) => options.log?.(`metrics: cannot publish (${error instanceof Error ? error.message : String(error)})`)), options.intervalMs ?? WORKER_METRICS_INTERVAL_MS);
  timer.unref();
  void publish().catch(() => {});
  return {
    publish,
    async stop() {
      clearInterval(timer);
      await sql.execute(`DELETE FROM "Setting" WHERE "key" = ?`, [key]).catch(() => {});
    },
  };
}

async function pruneStale(sql: SqlClient, now: number): Promise<void> {
  const rows = await sql.query<{ key: string; value: string }>(`SELECT "key", "value" FROM "Setting" WHERE "key" LIKE ? LIMIT ${WORKER_METRICS_MAX_ROWS}`, [`${WORKER_METRICS_KEY_PREFIX}%`]);
  for (const row of rows) {
    const snapshot = parseWorkerMetrics(row.value);
    if (!snapshot || now - Date.parse(snapshot.at) > PRUNE_AFTER_MS) await sql.execute(`DELETE FROM "Setting" WHERE "key" = ?`, [row.key]);
  }
}

const MAX_SERIES = 8;
const MAX_BUCKETS = 32;
/** A label a worker may publish ("le" and "worker" are the scrape's own). */
const SERIES_LABEL = /^(?!le$|worker$)[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/** A stored snapshot, checked field by field (the table is writable by other code); undefined when malformed. */
export function parseWorkerMetrics(text: string): WorkerMetricsSnapshot | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.workerId !== "string" || typeof value.at !== "string" || Number.isNaN(Date.parse(value.at))) return undefined;
  const claims = parseSeries(value.claims);
  const guards = parseSeries(value.guards);
  if (!claims || !guards) return undefined;
  return { workerId: value.workerId.slice(0, 200), at: value.at, claims, guards };
}

function parseSeries(value: unknown): HistogramSeries[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_SERIES) return undefined;
  const series: HistogramSeries[] = [];
  for (const item of value) {
    if (!isRecord(item) || !isNumbers(item.buckets) || !isNumbers(item.counts) || typeof item.sum !== "number") return undefined;
    if (item.buckets.length > MAX_BUCKETS || item.counts.length !== item.buckets.length + 1) return undefined;
    const labels = isRecord(item.labels) ? Object.fromEntries(Object.entries(item.labels).filter((entry): entry is [string, string] => SERIES_LABEL.test(entry[0]) && typeof entry[1] === "string").slice(0, 4)) : {};
    series.push({ labels, buckets: item.buckets, counts: item.counts, sum: item.sum });
  }
  return series;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isNumbers = (value: unknown): value is number[] => Array.isArray(value) && value.every((item) => typeof item === "number" && Number.isFinite(item));

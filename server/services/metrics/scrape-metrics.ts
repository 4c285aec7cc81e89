import { ESCALATION_KINDS, HELD_RUN_STATUSES, LIVE_RUN_STATUSES, liveRunPredicate } from "../../durable/lifecycle";
import type { Db } from "../../persistence/db";
import { writeExposition, type HistogramSeries, type Metric, type Sample } from "../../telemetry/metrics/exposition";
import { parseWorkerMetrics, WORKER_METRICS_KEY_PREFIX, WORKER_METRICS_MAX_ROWS, WORKER_METRICS_STALE_MS } from "../../telemetry/metrics/worker-metrics-store";
import type { WorkerMetricsSnapshot } from "../../telemetry/metrics/worker-metrics";
import { inboxGauges } from "./inbox-gauges";

const seconds = (ms: number) => Math.max(0, ms / 1000);

/**
 * What /metrics says, read at scrape time: gauges from the database (each an indexed count or
 * minimum over rows that are still live, so a scrape costs the same after a million finished
 * runs), and the histograms the workers published (worker-metrics-store.ts).
 */
export async function scrapeMetrics(db: Db, now = new Date()): Promise<string> {
  const [inbox, runs, escalations, oldestEscalation, workerRows] = await Promise.all([
    inboxGauges(db),
    // Runs that have not ended, by status (ended runs grow without bound), over the partial index of live runs.
    db.$queryRawUnsafe<{ status: string; runs: unknown }[]>(`SELECT CAST("status" AS TEXT) AS "status", COUNT(*) AS "runs" FROM "Run" WHERE ${liveRunPredicate()} GROUP BY "status"`),
    db.escalation.groupBy({ by: ["kind"], where: { status: "pending" }, _count: { _all: true } }),
    db.escalation.aggregate({ where: { status: "pending" }, _min: { createdAt: true } }),
    db.setting.findMany({ where: { key: { startsWith: WORKER_METRICS_KEY_PREFIX } }, take: WORKER_METRICS_MAX_ROWS, orderBy: { key: "asc" } }),
  ]);
  const runsByStatus = new Map(runs.map((row) => [row.status, Number(row.runs)]));
  const escalationsByKind = new Map(escalations.map((row) => [row.kind, row._count._all]));
  const workers = workerRows
    .map((row) => parseWorkerMetrics(row.value))
    .filter((snapshot): snapshot is WorkerMetricsSnapshot => snapshot !== undefined && now.getTime() - Date.parse(snapshot.at) <= WORKER_METRICS_STALE_MS);
  const oldestPendingAt = oldestEscalation._min.createdAt;

  const metrics: Metric[] = [
    {
      name: "dualstate_queue_depth",
      help: "Inbox messages waiting for a worker: due now, or scheduled for later (a retry's backoff).",
      type: "gauge",
      samples: [
        { labels: { state: "due" }, value: inbox.due },
        { labels: { state: "scheduled" }, value: inbox.scheduled },
      ],
    },
    {
      name: "dualstate_queue_oldest_due_seconds",
      help: "How long the longest-waiting due inbox message has been due (0 when none is).",
      type: "gauge",
      samples: [{ value: inbox.oldestDueSeconds }],
    },
    {
      name: "dualstate_runs",
      help: "Runs that have not ended, by status.",
      type: "gauge",
      samples: LIVE_RUN_STATUSES.map((status): Sample => ({ labels: { status }, value: runsByStatus.get(status) ?? 0 })),
    },
    {
      name: "dualstate_runs_in_flight",
      help: "Runs a worker holds right now (dispatched or running).",
      type: "gauge",
      samples: [{ value: HELD_RUN_STATUSES.reduce((sum, status) => sum + (runsByStatus.get(status) ?? 0), 0) }],
    },
    {
      name: "dualstate_escalations_pending",
      help: "Escalations waiting for a person's decision, by kind.",
      type: "gauge",
      samples: ESCALATION_KINDS.map((kind): Sample => ({ labels: { kind }, value: escalationsByKind.get(kind) ?? 0 })),
    },
    {
      name: "dualstate_escalation_oldest_pending_seconds",
      help: "Age of the oldest pending escalation (0 when none is pending).",
      type: "gauge",
      samples: [{ value: oldestPendingAt ? seconds(now.getTime() - oldestPendingAt.getTime()) : 0 }],
    },
    {
      name: "dualstate_workers_reporting",
      help: "Worker processes whose metrics were published in the last five minutes (only workers started with DUALSTATE_METRICS=1 publish).",
      type: "gauge",
      samples: [{ value: workers.length }],
    },
    {
      name: "dualstate_claim_duration_seconds",
      help: "How long a worker's claim of the next due inbox message takes, by outcome (claimed, empty, error), per worker process since it started.",
      type: "histogram",
      series: workers.flatMap((worker) => withWorker(worker.claims, worker.workerId)),
    },
    {
      name: "dualstate_guard_duration_seconds",
      help: "How long guards take to give their verdict, by verdict (passed, failed, fatal), per worker process since it started.",
      type: "histogram",
      series: workers.flatMap((worker) => withWorker(worker.guards, worker.workerId)),
    },
  ];
  return writeExposition(metrics);
}

function withWorker(series: readonly HistogramSeries[], workerId: string): HistogramSeries[] {
  return series.map((item) => ({ ...item, labels: { worker: workerId, ...item.labels } }));
}

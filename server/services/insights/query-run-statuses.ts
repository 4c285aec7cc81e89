import { RUN_STATUSES, type RunStatus } from "@/server/durable/lifecycle";
import type { InsightsSql } from "./insights-sql";
import type { RunFilter } from "./run-filter";
import { fillBuckets, type TimeWindow } from "./time-window";

export type StatusCounts = Record<RunStatus, number>;

export interface RunStatusSeries {
  readonly total: number;
  readonly byStatus: StatusCounts;
  /** One entry per bucket of the window: the runs created in it, by their status now. */
  readonly buckets: readonly { bucket: string; total: number; byStatus: StatusCounts }[];
}

export const noRuns = (): StatusCounts => Object.fromEntries(RUN_STATUSES.map((status) => [status, 0])) as StatusCounts;

function isRunStatus(value: string): value is RunStatus {
  return (RUN_STATUSES as readonly string[]).includes(value);
}

/** One grouped query: at most (buckets × statuses) rows. */
export async function queryRunStatuses(sql: InsightsSql, window: TimeWindow, filter: RunFilter): Promise<RunStatusSeries> {
  const rows = await sql.query<{ bucket: string; status: string; runs: bigint | number }>(
    `SELECT ${sql.bucket(`r."createdAt"`, window.unit)} AS "bucket", r."status" AS "status", COUNT(*) AS "runs" FROM "Run" r WHERE ${filter.sql} GROUP BY 1, 2`,
    filter.params,
  );
  const counted = rows.filter((row) => isRunStatus(row.status)).map((row) => ({ bucket: row.bucket, status: row.status as RunStatus, runs: Number(row.runs) }));
  const buckets = fillBuckets(window, counted, noRuns, (counts, row) => ({ ...counts, [row.status]: counts[row.status] + row.runs })).map(({ bucket, value }) => ({
    bucket,
    byStatus: value,
    total: Object.values(value).reduce((sum, n) => sum + n, 0),
  }));
  const byStatus = noRuns();
  for (const entry of buckets) for (const status of RUN_STATUSES) byStatus[status] += entry.byStatus[status];
  return { total: buckets.reduce((sum, entry) => sum + entry.total, 0), byStatus, buckets };
}

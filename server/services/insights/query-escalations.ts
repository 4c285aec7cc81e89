import { ESCALATION_KINDS, ESCALATION_STATUSES, type EscalationKind, type EscalationStatus } from "@/server/durable/lifecycle";
import { INSIGHTS_LIMITS } from "./insights-limits";
import type { InsightsSql } from "./insights-sql";
import { percentile } from "@/server/statistics/percentiles";
import type { RunFilter } from "./run-filter";
import { fillBuckets, type TimeWindow } from "./time-window";

/** Decisions people took; an expired or cancelled escalation was never decided. */
const DECIDED_BY_A_PERSON = ["approved", "rejected"] as const satisfies readonly EscalationStatus[];

export interface EscalationFigures {
  /** Runs with at least one escalation. */
  readonly escalatedRuns: number;
  readonly escalations: number;
  readonly byKind: Record<EscalationKind, number>;
  readonly byStatus: Record<EscalationStatus, number>;
  /** Escalated runs per bucket (the bucket of the run's creation). */
  readonly buckets: readonly { bucket: string; escalatedRuns: number }[];
  readonly timeToDecision: {
    /** How many decisions the percentiles are computed from; at most INSIGHTS_LIMITS.decisionSample, the newest. */
    readonly sample: number;
    readonly truncated: boolean;
    readonly p50Ms: number | null;
    readonly p95Ms: number | null;
  };
}

type Count = bigint | number;

export async function queryEscalations(sql: InsightsSql, window: TimeWindow, filter: RunFilter): Promise<EscalationFigures> {
  const join = `FROM "Escalation" e JOIN "Run" r ON r."id" = e."runId" WHERE ${filter.sql}`;
  const perBucket = await sql.query<{ bucket: string; runs: Count }>(`SELECT ${sql.bucket(`r."createdAt"`, window.unit)} AS "bucket", COUNT(DISTINCT e."runId") AS "runs" ${join} GROUP BY 1`, filter.params);
  const perKind = await sql.query<{ kind: string; status: string; escalations: Count }>(
    `SELECT e."kind" AS "kind", e."status" AS "status", COUNT(*) AS "escalations" ${join} GROUP BY 1, 2 LIMIT 100`,
    filter.params,
  );
  const decided = DECIDED_BY_A_PERSON.map((status) => `'${status}'`).join(", ");
  const durations = await sql.query<{ ms: number }>(
    `SELECT ${sql.millisBetween(`e."createdAt"`, `e."decidedAt"`)} AS "ms" ${join} AND e."status" IN (${decided}) AND e."decidedAt" IS NOT NULL ORDER BY e."decidedAt" DESC LIMIT ${INSIGHTS_LIMITS.decisionSample + 1}`,
    filter.params,
  );

  const buckets = fillBuckets(window, perBucket, () => 0, (sum, row) => sum + Number(row.runs)).map(({ bucket, value }) => ({ bucket, escalatedRuns: value }));
  const byKind = Object.fromEntries(ESCALATION_KINDS.map((kind) => [kind, 0])) as Record<EscalationKind, number>;
  const byStatus = Object.fromEntries(ESCALATION_STATUSES.map((status) => [status, 0])) as Record<EscalationStatus, number>;
  let escalations = 0;
  for (const row of perKind) {
    const n = Number(row.escalations);
    escalations += n;
    if (row.kind in byKind) byKind[row.kind as EscalationKind] += n;
    if (row.status in byStatus) byStatus[row.status as EscalationStatus] += n;
  }
  const sample = durations.slice(0, INSIGHTS_LIMITS.decisionSample).map((row) => Math.max(0, Math.round(Number(row.ms))));
  return {
    escalatedRuns: buckets.reduce((sum, entry) => sum + entry.escalatedRuns, 0),
    escalations,
    byKind,
    byStatus,
    buckets,
    timeToDecision: { sample: sample.length, truncated: durations.length > INSIGHTS_LIMITS.decisionSample, p50Ms: percentile(sample, 50), p95Ms: percentile(sample, 95) },
  };
}

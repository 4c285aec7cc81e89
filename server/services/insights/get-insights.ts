import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { insightsSqlFor } from "./insights-sql";
import { queryCosts, type CostFigures } from "./query-costs";
import { queryEscalations, type EscalationFigures } from "./query-escalations";
import { queryFailureReasons, type FailureReasonFigures } from "./query-failure-reasons";
import { queryRunStatuses, type RunStatusSeries } from "./query-run-statuses";
import { runFilter } from "./run-filter";
import { timeWindow, type BucketUnit, type InsightRange } from "./time-window";

export interface InsightsQuery {
  readonly range: InsightRange;
  /** Only this workflow's runs (any version); all workflows when absent. */
  readonly workflowId?: string;
}

export interface Insights {
  readonly range: InsightRange;
  readonly unit: BucketUnit;
  readonly from: Date;
  readonly to: Date;
  readonly workflow: { readonly id: string; readonly name: string } | null;
  readonly runs: RunStatusSeries;
  /** Share of the window's runs with at least one escalation, null when there were no runs. */
  readonly escalationRate: number | null;
  readonly escalations: EscalationFigures;
  readonly cost: CostFigures;
  readonly guardFailures: FailureReasonFigures;
}

/** The Metrics page: figures about the runs created in the window (UTC buckets), each from one bounded query. */
export async function getInsights(db: Db, query: InsightsQuery, now = new Date()): Promise<Insights> {
  const workflow = query.workflowId === undefined ? null : await db.workflow.findUnique({ where: { id: query.workflowId }, select: { id: true, name: true } });
  if (query.workflowId !== undefined && !workflow) throw notFound("Workflow", query.workflowId);
  const window = timeWindow(query.range, now);
  const sql = insightsSqlFor(db);
  const filter = runFilter(sql, window, workflow?.id ?? null);
  const runs = await queryRunStatuses(sql, window, filter);
  const escalations = await queryEscalations(sql, window, filter);
  const cost = await queryCosts(db, sql, filter);
  const guardFailures = await queryFailureReasons(sql, filter);
  return {
    range: window.range,
    unit: window.unit,
    from: window.from,
    to: window.to,
    workflow,
    runs,
    escalationRate: runs.total === 0 ? null : escalations.escalatedRuns / runs.total,
    escalations,
    cost,
    guardFailures,
  };
}

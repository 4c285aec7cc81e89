import type { InsightsSql } from "./insights-sql";
import type { TimeWindow } from "./time-window";

/**
 * Every figure of the Metrics page is about the runs created in the window (of one workflow,
 * when filtered): their statuses, costs, escalations and guard verdicts. The condition on
 * `Run r` below walks Run's createdAt index, or (workflowVersionId, createdAt) when filtered.
 */
export interface RunFilter {
  readonly sql: string;
  readonly params: readonly (string | number)[];
}

export function runFilter(sql: InsightsSql, window: TimeWindow, workflowId: string | null): RunFilter {
  const from = sql.time(window.from);
  const to = sql.time(window.to);
  const byWorkflow = workflowId === null ? "" : ` AND r."workflowVersionId" IN (SELECT v."id" FROM "WorkflowVersion" v WHERE v."workflowId" = ?)`;
  return {
    sql: `r."createdAt" >= ${from.sql} AND r."createdAt" < ${to.sql}${byWorkflow}`,
    params: [from.value, to.value, ...(workflowId === null ? [] : [workflowId])],
  };
}

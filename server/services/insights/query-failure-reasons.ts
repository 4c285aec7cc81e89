import { INSIGHTS_LIMITS } from "./insights-limits";
import type { InsightsSql } from "./insights-sql";
import { topFailureReasons, type FailedVerdict, type FailureReason } from "./failure-reasons";
import type { RunFilter } from "./run-filter";

export interface FailureReasonFigures {
  /** Failed verdicts read, the newest first: at most INSIGHTS_LIMITS.failedVerdictSample. */
  readonly sample: number;
  readonly truncated: boolean;
  readonly reasons: readonly FailureReason[];
}

/**
 * Failed guard verdicts are stored on their artifacts (passed = false, with the guard's id and
 * feedback; the ledger's guard.completed entries repeat them). Read through the runs in the
 * window and Artifact's (runId, createdAt) index; only the feedback's start is read.
 */
export async function queryFailureReasons(sql: InsightsSql, filter: RunFilter): Promise<FailureReasonFigures> {
  const rows = await sql.query<{ guardId: string; stepName: string; feedback: string | null; fatal: boolean | number | bigint; runId: string }>(
    `SELECT a."guardId" AS "guardId", a."stepName" AS "stepName", substr(a."feedback", 1, ${INSIGHTS_LIMITS.feedbackChars}) AS "feedback", a."fatal" AS "fatal", a."runId" AS "runId"
     FROM "Artifact" a JOIN "Run" r ON r."id" = a."runId" WHERE ${filter.sql} AND NOT a."passed" ORDER BY a."createdAt" DESC, a."id" LIMIT ${INSIGHTS_LIMITS.failedVerdictSample + 1}`,
    filter.params,
  );
  const verdicts: FailedVerdict[] = rows.slice(0, INSIGHTS_LIMITS.failedVerdictSample).map((row) => ({ guardId: row.guardId, stepName: row.stepName, feedback: row.feedback ?? "", fatal: Boolean(Number(row.fatal)), runId: row.runId }));
  return { sample: verdicts.length, truncated: rows.length > INSIGHTS_LIMITS.failedVerdictSample, reasons: topFailureReasons(verdicts, INSIGHTS_LIMITS.reasons) };
}

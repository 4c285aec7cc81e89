import { sqlList, TERMINAL_RUN_STATUSES } from "@/server/durable/lifecycle";
import type { SqlExecutor } from "@/server/persistence/sql/sql-client";

/**
 * Copies the outcome of every sample whose run ended: the run's terminal status, or "escalated"
 * for a run waiting on a pending escalation (an experiment does not wait days for a person; the
 * run itself still waits for the decision). Idempotent: only samples without an outcome change.
 */
export async function settleSamples(sql: SqlExecutor, experimentId: string): Promise<number> {
  const run = `"Run" r WHERE r."id" = "ExperimentSample"."runId"`;
  const ended = `(r."status" IN ${sqlList(TERMINAL_RUN_STATUSES)} OR (r."status" = 'suspended' AND EXISTS (SELECT 1 FROM "Escalation" e WHERE e."runId" = r."id" AND e."status" = 'pending')))`;
  return sql.execute(
    `UPDATE "ExperimentSample"
        SET "outcome" = (SELECT CASE WHEN r."status" IN ${sqlList(TERMINAL_RUN_STATUSES)} THEN CAST(r."status" AS TEXT) ELSE 'escalated' END FROM ${run}),
            "finishedAt" = (SELECT COALESCE(r."finishedAt", r."updatedAt") FROM ${run})
      WHERE "experimentId" = ? AND "outcome" IS NULL AND "runId" IS NOT NULL AND EXISTS (SELECT 1 FROM ${run} AND ${ended})`,
    [experimentId],
  );
}

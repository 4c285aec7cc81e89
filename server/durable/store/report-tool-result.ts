import { randomUUID } from "node:crypto";
import type { JsonObject } from "../../engine";
import type { SqlClient } from "../../persistence/sql/sql-client";
import { applyReport, overdueWaits, timeoutResult, type ReportOutcome } from "./tool-waits";

export interface ToolReport {
  readonly runId: string;
  readonly callId: string;
  /** Checked by the caller against the call's result schema before it gets here. */
  readonly result: JsonObject;
  readonly reportedBy: string;
  /** Who reported, for the audit log: written in the report's transaction. */
  readonly auditActor?: { readonly id: string | null; readonly email: string };
}

/** A report from outside (a person's answer, an outside system's result), in its own transaction with its audit event. */
export async function reportToolResult(sql: SqlClient, report: ToolReport): Promise<ReportOutcome> {
  const d = sql.dialect;
  return sql.transaction(async (tx) => {
    const outcome = await applyReport(tx, d, { runId: report.runId, callId: report.callId, result: report.result, status: "reported", reportedBy: report.reportedBy });
    if (outcome.applied && report.auditActor) {
      await tx.execute(`INSERT INTO "AuditEvent" ("id", "at", "actorId", "actorEmail", "action", "target", "detail") VALUES (?, ${d.now}, ?, ?, 'tool_call.reported', ?, ?)`, [
        randomUUID(),
        report.auditActor.id,
        report.auditActor.email,
        `tool_call:${report.callId}`,
        d.json({ runId: report.runId, resumed: outcome.resumed }),
      ]);
    }
    return outcome;
  });
}

/**
 * Watchdog: each waiting call past its deadline gets the TIMEOUT report (003 section 3.6), in a
 * transaction of its own; a report that won the race first leaves it without effect.
 */
export async function timeOutOverdueWaits(sql: SqlClient): Promise<{ runId: string; callId: string }[]> {
  const d = sql.dialect;
  const timedOut: { runId: string; callId: string }[] = [];
  for (const wait of await overdueWaits(sql, d)) {
    const outcome = await sql.transaction(async (tx) => {
      const applied = await applyReport(tx, d, { runId: wait.runId, callId: wait.callId, result: timeoutResult(wait.tool), status: "timed_out", reportedBy: "watchdog" });
      if (applied.applied) await tx.execute(`UPDATE "Run" SET "watchdogNote" = ? WHERE "id" = ?`, [`${wait.at}: call ${wait.callId} (${wait.tool}) passed its deadline; a timeout was reported`, wait.runId]);
      return applied;
    });
    if (outcome.applied) timedOut.push({ runId: wait.runId, callId: wait.callId });
  }
  return timedOut;
}

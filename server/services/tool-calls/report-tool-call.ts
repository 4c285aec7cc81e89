import type { Db } from "@/server/persistence/db";
import { conflict } from "../errors";
import { applyReport, type Reporter } from "./apply-report";
import { loadWait } from "./load-wait";
import type { ToolReportOutcome } from "./report-outcome";

export interface ReportToolCallInput {
  readonly runId: string;
  readonly callId: string;
  /** The tool's result: one JSON object matching the wait's result schema, at most 256 KiB. */
  readonly result: unknown;
}

/**
 * An outside system reports the result of an external tool call (`dualstate runs report`, the
 * HTTP route, `toolCall.report`). Refused, naming the problem: an unknown run or call (NOT_FOUND),
 * a person's question or a sub-run (CONFLICT: answered in the review queue, reported by the
 * sub-run), a result that is not one JSON object within the bounds or does not match the wait's
 * result schema (INVALID_INPUT naming the field). A duplicate or late report is acknowledged
 * without effect (`applied: false`), not refused: a reporter that retries must be safe.
 * The caller checks the reporter's role (server/auth/permissions.ts, report_tool_result).
 */
export async function reportToolCall(db: Db, input: ReportToolCallInput, reporter: Reporter): Promise<ToolReportOutcome> {
  const wait = await loadWait(db, input.callId, input.runId);
  if (wait.kind === "person") {
    throw conflict(`Tool call ${wait.id} (${wait.tool}) asks a person a question: answer it in the review queue (Escalations → Questions), not with a report`);
  }
  if (wait.kind === "workflow") {
    throw conflict(`Tool call ${wait.id} (${wait.tool}) waits for sub-run ${wait.childRunId ?? "(not started yet)"}, whose result is reported when it ends`);
  }
  return applyReport(db, wait, "result", input.result, reporter);
}

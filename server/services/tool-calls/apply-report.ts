import type { Db } from "@/server/persistence/db";
import { ServiceError } from "../errors";
import { checkResultSchema } from "./check-result-schema";
import type { LoadedWait } from "./load-wait";
import { boundedResult } from "./result-bounds";
import { reportOutcome, type ToolReportOutcome } from "./report-outcome";
import { toolResultStore } from "./tool-result-store";

/** Who reports: a person or an API token's holder (id null for the CLI's operator, who has no account). */
export interface Reporter {
  readonly id: string | null;
  readonly email: string;
}

/**
 * Checks `value` (bounds, then the wait's schema, both named by `field`) and hands it to the
 * durable store, which applies it in one transaction or acknowledges it without effect.
 */
export async function applyReport(db: Db, wait: LoadedWait, field: string, value: unknown, reporter: Reporter): Promise<ToolReportOutcome> {
  const result = boundedResult(field, value);
  await checkResultSchema(field, wait.resultSchema, result, wait.id);
  const outcome = await toolResultStore(db).reportToolResult({
    runId: wait.runId,
    callId: wait.id,
    result,
    reportedBy: reporter.email,
    auditActor: { id: reporter.id, email: reporter.email },
  });
  // Loaded a moment ago; gone now only if the run was deleted in between.
  if (!outcome.applied && outcome.status === "unknown") throw new ServiceError("NOT_FOUND", `Run "${wait.runId}" has no tool call "${wait.id}"`);
  return reportOutcome(wait.runId, wait.id, reporter.email, outcome);
}

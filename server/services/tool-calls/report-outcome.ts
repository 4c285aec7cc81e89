import type { ReportOutcome } from "@/server/durable";
import type { ClosedWaitStatus } from "./tool-result-store";

/** What a report or an answer did: applied, or acknowledged without effect (a duplicate or a late one). */
export type ToolReportOutcome =
  | {
      readonly applied: true;
      readonly runId: string;
      readonly callId: string;
      readonly status: "reported";
      readonly reportedBy: string;
      /** The report completed the run's waiting set: a worker resumes the run. */
      readonly resumed: boolean;
      readonly message: string;
    }
  | {
      readonly applied: false;
      readonly runId: string;
      readonly callId: string;
      readonly status: ClosedWaitStatus;
      readonly reportedBy: string | null;
      readonly reportedAt: Date | null;
      readonly message: string;
    };

const at = (date: Date | null) => (date ? ` at ${date.toISOString()}` : "");

/** Says why a report had no effect, in words a script's log or a reviewer can act on. */
export function describeClosedWait(callId: string, status: ClosedWaitStatus, reportedBy: string | null, reportedAt: Date | null): string {
  switch (status) {
    case "reported":
      return `Tool call ${callId} was already answered by ${reportedBy ?? "someone else"}${at(reportedAt)}; this report had no effect.`;
    case "timed_out":
      return `Tool call ${callId} timed out${at(reportedAt)}: the run went on with the timeout, and this report had no effect.`;
    case "cancelled":
      return `Tool call ${callId} was cancelled with its run${at(reportedAt)}; this report had no effect.`;
  }
}

function asDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The store's answer as the API gives it; `unknown` never gets here (the call was loaded first). */
export function reportOutcome(runId: string, callId: string, reportedBy: string, outcome: Exclude<ReportOutcome, { status: "unknown" }>): ToolReportOutcome {
  if (outcome.applied) {
    const next = outcome.resumed ? "the run resumes when a worker picks it up" : "the run resumes once its other waiting calls are reported";
    return { applied: true, runId, callId, status: "reported", reportedBy, resumed: outcome.resumed, message: `Reported tool call ${callId} of run ${runId} as ${reportedBy}; ${next}.` };
  }
  const reportedAt = asDate(outcome.reportedAt);
  return { applied: false, runId, callId, status: outcome.status, reportedBy: outcome.reportedBy, reportedAt, message: describeClosedWait(callId, outcome.status, outcome.reportedBy, reportedAt) };
}

import type { Db } from "@/server/persistence/db";
import { conflict } from "../errors";
import { applyReport, type Reporter } from "./apply-report";
import { loadWait } from "./load-wait";
import type { ToolReportOutcome } from "./report-outcome";

export interface AnswerPersonCallInput {
  readonly callId: string;
  /** The answer form's values: one JSON object matching the question's answer schema. */
  readonly answer: unknown;
}

/**
 * A reviewer answers a tool's question from the review queue; the answer is the tool's result.
 * Checked like a report (bounds, then the answer schema, the message naming the field), recorded
 * by the same store operation with its audit event. When someone answered first (or the call
 * timed out or was cancelled) the outcome says who and when, with `applied: false`.
 * The caller checks the role (answer_question: reviewers and admins).
 */
export async function answerPersonCall(db: Db, input: AnswerPersonCallInput, reviewer: Reporter): Promise<ToolReportOutcome> {
  const wait = await loadWait(db, input.callId);
  if (wait.kind !== "person") throw conflict(`Tool call ${wait.id} (${wait.tool}) is not a question for a person; its result is reported by ${wait.kind === "workflow" ? "its sub-run" : "the outside system it calls"}`);
  return applyReport(db, wait, "answer", input.answer, reviewer);
}

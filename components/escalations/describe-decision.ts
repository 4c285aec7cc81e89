/** The fields of an escalation that say how it was closed. */
export interface ClosedEscalation {
  readonly status: string;
  readonly decision: string | null;
  readonly decidedBy: string | null;
  readonly decidedAt: Date | null;
  readonly comment: string | null;
}

/** How each decision kind reads in a sentence ("Approved by ..."). */
export const DECISION_VERBS: Record<string, string> = {
  approve: "Approved",
  edit_and_approve: "Edited and approved",
  reject: "Rejected",
  reject_with_feedback: "Rejected with feedback",
};

/** "2026-11-25 23:40 UTC": the same on the server and in every browser, so it hydrates cleanly. */
export function formatDecisionTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * One line saying who decided what and when, in place of a deadline: "Approved by ada@… at
 * 2026-11-25 23:40 UTC", "Rejected by bob@… at …: never shell out"; null while pending.
 */
export function describeDecision(escalation: ClosedEscalation): string | null {
  if (escalation.status === "pending") return null;
  const at = escalation.decidedAt ? ` at ${formatDecisionTime(new Date(escalation.decidedAt))}` : "";
  const comment = escalation.comment?.trim() ? `: ${escalation.comment.trim()}` : "";
  if (escalation.decidedBy && escalation.decision && DECISION_VERBS[escalation.decision]) {
    return `${DECISION_VERBS[escalation.decision]} by ${escalation.decidedBy}${at}${comment}`;
  }
  const status = `${escalation.status[0]?.toUpperCase() ?? ""}${escalation.status.slice(1)}`;
  return `${status}${at}${comment}`;
}

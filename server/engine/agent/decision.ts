/**
 * A person's decision on an escalated attempt, as recorded in the run's ledger under the
 * attempt's decision key. A resumed run reads it back where the escalation stopped it (issue 7
 * writes approvals and rejections; the watchdog writes "expired" when the deadline passes).
 */
export type EscalationDecision =
  | { readonly kind: "approve" }
  | { readonly kind: "reject"; readonly reason: string }
  | { readonly kind: "reject_with_feedback"; readonly feedback: string }
  /** The reviewer's own content replaces the artifact; it still goes through the step's guard. */
  | { readonly kind: "edit_and_approve"; readonly content: string };

/** The decision a payload records, or undefined when there is none (or it is not a decision). */
export function parseDecision(payload: Readonly<Record<string, unknown>> | undefined): EscalationDecision | undefined {
  if (!payload) return undefined;
  const comment = typeof payload.comment === "string" ? payload.comment.trim() : "";
  switch (payload.decision) {
    case "approve":
      return { kind: "approve" };
    case "reject":
      return { kind: "reject", reason: comment ? `Rejected by ${String(payload.decidedBy ?? "a reviewer")}: ${comment}` : `Rejected by ${String(payload.decidedBy ?? "a reviewer")}` };
    case "expired":
      return { kind: "reject", reason: "escalation expired" };
    case "reject_with_feedback":
      return { kind: "reject_with_feedback", feedback: comment };
    case "edit_and_approve":
      return typeof payload.editedContent === "string" ? { kind: "edit_and_approve", content: payload.editedContent } : undefined;
    default:
      return undefined;
  }
}

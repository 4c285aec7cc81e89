/** What a person decided on an escalated attempt, for the timeline. */
export interface ReviewerDecision {
  readonly escalationId: string;
  /** "approved", "edited and approved", "rejected", "sent back with feedback", "expired" */
  readonly label: string;
  readonly decidedBy: string | null;
  /** The reviewer's reason or feedback; null when they wrote none. */
  readonly comment: string | null;
  /** Whether the comment went back to the model as feedback (the step retried with it). */
  readonly isFeedback: boolean;
}

const LABELS: Record<string, string> = {
  approve: "approved",
  edit_and_approve: "edited and approved",
  reject: "rejected",
  reject_with_feedback: "sent back with feedback",
  expired: "expired",
};

/** The decided escalation on this attempt (its artifact), if a person decided one. Pure. */
export function reviewerDecisionOf(
  artifactId: string,
  escalations: readonly { readonly id: string; readonly artifactId: string | null; readonly decision: string | null; readonly decidedBy: string | null; readonly comment: string | null }[],
): ReviewerDecision | null {
  const decided = escalations.findLast((escalation) => escalation.artifactId === artifactId && escalation.decision !== null);
  if (!decided || decided.decision === null) return null;
  const comment = decided.comment?.trim() ? decided.comment : null;
  return { escalationId: decided.id, label: LABELS[decided.decision] ?? decided.decision, decidedBy: decided.decidedBy, comment, isFeedback: decided.decision === "reject_with_feedback" };
}

/**
 * Approving a fatal escalation (a guard found something dangerous, or a human guard asked for a
 * person) needs the approver to have seen its code: opened its review page, which records a view.
 * Pure, so the queue shows the same rule the decide procedure enforces.
 */
export const UNSEEN_CODE_REFUSAL = "Open the review page first: a fatal escalation is approved only by a reviewer who has seen its code";

export function approvalRefusal(escalation: { readonly fatal: boolean; readonly seenByYou: boolean }): string | null {
  return escalation.fatal && !escalation.seenByYou ? UNSEEN_CODE_REFUSAL : null;
}

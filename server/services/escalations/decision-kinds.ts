/** What a reviewer can decide on an escalation (docs/escalations.md). */
export const DECISIONS = ["approve", "edit_and_approve", "reject", "reject_with_feedback"] as const;
export type DecisionKind = (typeof DECISIONS)[number];

/** The person (or token holder) deciding, as the API edge identifies them. */
export interface Decider {
  /** The user's id (null for the CLI acting as an email with no account). */
  readonly id?: string | null;
  readonly email: string;
  readonly role: "viewer" | "reviewer" | "admin";
}

/** The roles that may decide (and be assigned) escalations. */
export const DECIDING_ROLES = ["reviewer", "admin"] as const;

export function canDecide(role: string | undefined): boolean {
  return (DECIDING_ROLES as readonly (string | undefined)[]).includes(role);
}

/** The escalation status a decision leaves behind. */
export function statusAfter(decision: DecisionKind): "approved" | "rejected" {
  return decision === "approve" || decision === "edit_and_approve" ? "approved" : "rejected";
}

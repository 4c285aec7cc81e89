import { can, ROLES, type Role } from "@/server/auth/permissions";

/** What a reviewer can decide on an escalation (docs/escalations.md). */
export const DECISIONS = ["approve", "edit_and_approve", "reject", "reject_with_feedback"] as const;
export type DecisionKind = (typeof DECISIONS)[number];

/** The person (or token holder) deciding, as the API edge identifies them. */
export interface Decider {
  /** The user's id (null for the CLI acting as an email with no account). */
  readonly id?: string | null;
  readonly email: string;
  readonly role: Role;
}

/** The roles that may decide (and be assigned) escalations. */
export const DECIDING_ROLES = ROLES.filter((role) => can(role, "decide_escalation"));

/** `role` as stored (a database enum, a CLI user's row) may decide escalations. */
export function canDecide(role: string | null | undefined): boolean {
  return can(role as Role | null | undefined, "decide_escalation");
}

/** The escalation status a decision leaves behind. */
export function statusAfter(decision: DecisionKind): "approved" | "rejected" {
  return decision === "approve" || decision === "edit_and_approve" ? "approved" : "rejected";
}

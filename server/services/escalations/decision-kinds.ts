import { can, ROLES, type Role } from "@/server/auth/permissions";
import { DECISIONS, statusAfter as escalationStatusAfter, type DecisionKind } from "@/server/durable/decision";

/** What a reviewer can decide on an escalation (docs/escalations.md): the durable protocol's vocabulary. */
export { DECISIONS, type DecisionKind };

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

/** The escalation status a reviewer's decision leaves behind. */
export function statusAfter(decision: DecisionKind): "approved" | "rejected" {
  return escalationStatusAfter(decision) as "approved" | "rejected";
}

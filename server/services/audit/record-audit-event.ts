import { randomUUID } from "node:crypto";
import type { Db } from "@/server/persistence/db";
import type { Actor } from "@/server/api/trpc";
import type { HandOffAuditAction } from "@/server/review-policy/hand-off";

export type AuditAction =
  | "sign_in.succeeded"
  | "sign_in.failed"
  | "sign_in.limited"
  | "sign_out"
  | "user.created"
  | "user.updated"
  | "user.password_reset"
  | "user.password_changed"
  | "user.password_change_failed"
  // A person proved a Slack member id is theirs (server/services/users/confirm-slack-verification-code.ts).
  | "user.slack_verified"
  | "token.created"
  | "token.revoked"
  | "workflow.saved"
  | "workflow.renamed"
  | "workflow.archived"
  | "workflow.unarchived"
  | "escalation.decided"
  | "escalation.claimed"
  // Written by the watchdog in the hand-off's transaction (server/review-policy/hand-off.ts HANDOFF_AUDIT_ACTIONS).
  | HandOffAuditAction
  // A reviewer's vote under a quorum policy, written by the durable store in the vote's transaction (store/cast-quorum-vote.ts).
  | "escalation.voted"
  // Written by the durable store in the report's transaction (a person's answer or an outside system's result).
  | "tool_call.reported"
  | "model_endpoint.created"
  | "model_endpoint.updated"
  | "model_endpoint.deleted"
  | "model_price.saved"
  | "model_price.deleted"
  // Reviewer groups and the routing document (server/services/reviewer-groups, server/services/routing).
  | "reviewer_group.created"
  | "reviewer_group.updated"
  | "reviewer_group.deleted"
  | "reviewer_group.member_added"
  | "reviewer_group.member_removed"
  | "routing.saved";

export interface AuditEventInput {
  /** Who acted; for a failed sign-in, the email that was tried. */
  readonly actor: Pick<Actor, "id" | "email"> | { readonly id: null; readonly email: string };
  readonly action: AuditAction;
  /** What it was done to, e.g. "user:ada@example.com" or "escalation:<id>". */
  readonly target: string;
  readonly detail?: Readonly<Record<string, unknown>>;
  readonly ip?: string | null;
}

/**
 * Appends one event to the audit log (append-only: the database refuses updates and deletes).
 * Pass a transaction client to record an event atomically with the change it describes.
 */
export async function recordAuditEvent(db: Pick<Db, "auditEvent">, event: AuditEventInput): Promise<void> {
  await db.auditEvent.create({
    data: {
      id: randomUUID(),
      actorId: event.actor.id,
      actorEmail: event.actor.email,
      action: event.action,
      target: event.target,
      detail: (event.detail ?? {}) as object,
      ip: event.ip ?? null,
    },
  });
}

import type { Role } from "@/server/auth/permissions";
import type { Db } from "@/server/persistence/db";
import { isServiceError } from "../errors";
import { decideEscalation, type DecisionOutcome } from "../escalations/decide-escalation";
import { recordEscalationView } from "../escalations/record-view";
import { openDecisionLink, type RefusedDecisionLink } from "./open-decision-link";

export interface DecideByLinkInput {
  readonly token: string;
  /** The artifact hash the confirmation page showed: the decision is made on what was seen. */
  readonly contentHash: string;
  /** A rejection's feedback for the next attempt (optional). */
  readonly comment?: string;
}

/** Bounds what a form post can carry into the ledger. */
const MAX_COMMENT_CHARS = 10_000;

/**
 * Decides an escalation through a one-click link, after its confirmation page (a POST: following
 * a link never decides). The link is taken by compare-and-swap first, so of two posts at once one
 * decides and the other is told the link was used; the escalation's own compare-and-swap then
 * settles a race with a reviewer in the queue. A failure that is not a refusal (an outage) gives
 * the link back, so the person can try again.
 */
export async function decideByLink(db: Db, authSecret: string, input: DecideByLinkInput, options: { now?: Date; signedInAs?: string | null } = {}): Promise<{ ok: true; outcome: DecisionOutcome } | RefusedDecisionLink> {
  const now = options.now ?? new Date();
  const opened = await openDecisionLink(db, authSecret, input.token, options);
  if (!opened.ok) return opened;
  const escalationId = opened.escalation.id;
  if (input.contentHash !== opened.escalation.contentHash) {
    return { ok: false, escalationId, reason: "The page you confirmed showed another version of the artifact. Reload the link and confirm again." };
  }
  const comment = (input.comment ?? "").trim();
  if (comment.length > MAX_COMMENT_CHARS) return { ok: false, escalationId, reason: `The feedback is ${comment.length} characters; at most ${MAX_COMMENT_CHARS} are kept.` };

  const taken = await db.decisionLink.updateMany({ where: { id: opened.linkId, usedAt: null }, data: { usedAt: now } });
  if (taken.count !== 1) return { ok: false, escalationId, reason: "This link was already used. Each link works once; open the escalation from the review queue." };

  const decider = { id: opened.reviewer.id, email: opened.reviewer.email, role: opened.reviewer.role as Role };
  try {
    // The confirmation page showed the code: that is the review a fatal approval needs.
    if (opened.decision === "approve") await recordEscalationView(db, escalationId, decider.email, now);
    const decision = opened.decision === "approve" ? "approve" : comment ? "reject_with_feedback" : "reject";
    const outcome = await decideEscalation(db, decider, { escalationId, contentHash: input.contentHash, decision, ...(comment ? { comment } : {}) });
    return { ok: true, outcome };
  } catch (error) {
    if (isServiceError(error)) return { ok: false, escalationId, reason: error.message };
    await db.decisionLink.updateMany({ where: { id: opened.linkId, usedAt: now }, data: { usedAt: null } });
    throw error;
  }
}

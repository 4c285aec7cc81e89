import { decisionLinkKey, parseDecisionLinkToken, verifyDecisionLinkSignature } from "@/server/notifications/decision-link-token";
import type { Db } from "@/server/persistence/db";
import { canDecide } from "../escalations/decision-kinds";
import { describeClosedEscalation } from "../escalations/describe-closed";
import { groupRefusal } from "../escalations/group-rule";
import { offendingLine } from "../escalations/offending-line";

/** What the confirmation page shows for a valid link. */
export interface OpenDecisionLink {
  readonly ok: true;
  readonly linkId: string;
  readonly decision: "approve" | "reject";
  readonly recipient: string;
  readonly expiresAt: Date;
  readonly reviewer: { readonly id: string; readonly email: string; readonly role: string };
  readonly escalation: {
    readonly id: string;
    readonly runId: string;
    readonly workflow: string;
    readonly stepName: string;
    readonly guardId: string;
    readonly feedback: string;
    readonly fatal: boolean;
    readonly content: string;
    readonly language: string | null;
    readonly contentHash: string;
    readonly offendingLine: number | null;
    readonly expiresAt: Date | null;
  };
}

/** Why a link cannot be used, in words the person holding it can act on. */
export interface RefusedDecisionLink {
  readonly ok: false;
  readonly reason: string;
  readonly escalationId?: string;
}

const NOT_VALID = "This decision link is not valid: it may have been mistyped or cut by your mail reader. Open the escalation from the review queue instead.";

/**
 * Checks a one-click decision link without using it (opening the confirmation page never decides:
 * mail scanners and link previews follow links). Valid means: signed by this deployment for
 * exactly this escalation, recipient, decision, artifact and expiry; not used; not expired; the
 * recipient still may decide, and still may decide this escalation (its group rule); the escalation
 * still pending on the same artifact; and, when the page is opened signed in, signed in as the recipient.
 */
export async function openDecisionLink(db: Db, authSecret: string, token: string, options: { now?: Date; signedInAs?: string | null } = {}): Promise<OpenDecisionLink | RefusedDecisionLink> {
  const now = options.now ?? new Date();
  const parsed = parseDecisionLinkToken(token);
  if (!parsed) return { ok: false, reason: NOT_VALID };
  const link = await db.decisionLink.findUnique({ where: { id: parsed.linkId } });
  if (!link) return { ok: false, reason: NOT_VALID };
  const decision: "approve" | "reject" | null = link.decision === "approve" ? "approve" : link.decision === "reject" ? "reject" : null;
  if (!decision) return { ok: false, reason: NOT_VALID };
  const claims = { linkId: link.id, escalationId: link.escalationId, recipient: link.recipient, decision, contentHash: link.contentHash, expiresAt: link.expiresAt };
  if (!verifyDecisionLinkSignature(decisionLinkKey(authSecret), claims, parsed.signature)) return { ok: false, reason: NOT_VALID };

  const escalationId = link.escalationId;
  if (link.usedAt) return { ok: false, escalationId, reason: `This link was already used (${link.usedAt.toISOString()}). Each link works once; open the escalation from the review queue.` };
  if (link.expiresAt.getTime() <= now.getTime()) return { ok: false, escalationId, reason: `This link expired at ${link.expiresAt.toISOString()}. Open the escalation from the review queue to decide.` };
  if (options.signedInAs && options.signedInAs.toLowerCase() !== link.recipient.toLowerCase()) {
    return { ok: false, escalationId, reason: `This link was sent to ${link.recipient}, but you are signed in as ${options.signedInAs}. Sign out, or decide from the review queue.` };
  }
  const reviewer = await db.user.findUnique({ where: { email: link.recipient }, select: { id: true, email: true, role: true, disabled: true } });
  if (!reviewer || reviewer.disabled || !canDecide(reviewer.role)) return { ok: false, escalationId, reason: `${link.recipient} may no longer decide escalations, so this link no longer works.` };

  const escalation = await db.escalation.findUnique({
    where: { id: escalationId },
    select: {
      id: true, runId: true, status: true, decision: true, decidedBy: true, decidedAt: true, stepName: true, guardId: true, feedback: true, expiresAt: true, reviewGroup: true,
      artifact: { select: { content: true, contentHash: true, fatal: true, language: true } },
      run: { select: { workflowVersion: { select: { workflow: { select: { name: true } } } } } },
    },
  });
  // Only guard escalations (with an artifact) are ever sent links.
  if (!escalation?.artifact) return { ok: false, reason: NOT_VALID };
  const artifact = escalation.artifact;
  if (escalation.status !== "pending") return { ok: false, escalationId, reason: describeClosedEscalation(escalation) };
  if (artifact.contentHash !== link.contentHash) return { ok: false, escalationId, reason: "The artifact changed since this email was sent. Review the current one from the review queue." };
  // A hand-off may have moved the escalation to a group the recipient is not in: said before the code is shown and the link taken.
  const notYours = await groupRefusal(db, escalation.reviewGroup, reviewer);
  if (notYours) return { ok: false, escalationId, reason: `Escalation ${escalationId}: ${notYours}.` };

  return {
    ok: true,
    linkId: link.id,
    decision,
    recipient: link.recipient,
    expiresAt: link.expiresAt,
    reviewer: { id: reviewer.id, email: reviewer.email, role: reviewer.role },
    escalation: {
      id: escalation.id,
      runId: escalation.runId,
      workflow: escalation.run.workflowVersion?.workflow.name ?? "(deleted workflow)",
      stepName: escalation.stepName,
      guardId: escalation.guardId,
      feedback: escalation.feedback,
      fatal: artifact.fatal,
      content: artifact.content,
      language: artifact.language,
      contentHash: artifact.contentHash,
      offendingLine: offendingLine(escalation.feedback, artifact.content),
      expiresAt: escalation.expiresAt,
    },
  };
}

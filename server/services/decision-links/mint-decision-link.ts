import { decisionLinkKey, newDecisionLinkId, signDecisionLink } from "@/server/notifications/decision-link-token";
import type { Db } from "@/server/persistence/db";

const DEFAULT_LINK_LIFETIME_MS = 72 * 3_600_000;

/**
 * Stores a one-click decision link for `recipient` and returns its confirmation page's address:
 * bound to the escalation and the artifact's hash, single-use, and valid for `lifetimeMs` but never
 * past the escalation's own deadline.
 */
export async function mintDecisionLink(
  db: Db,
  input: { authSecret: string; baseUrl: string; escalationId: string; recipient: string; decision: "approve" | "reject"; contentHash: string; escalationExpiresAt: Date | null; now: Date; lifetimeMs?: number },
): Promise<{ url: string; expiresAt: Date }> {
  const lifetime = input.now.getTime() + (input.lifetimeMs ?? DEFAULT_LINK_LIFETIME_MS);
  const expiresAt = new Date(Math.min(lifetime, input.escalationExpiresAt?.getTime() ?? lifetime));
  const claims = { linkId: newDecisionLinkId(), escalationId: input.escalationId, recipient: input.recipient, decision: input.decision, contentHash: input.contentHash, expiresAt };
  await db.decisionLink.create({ data: { id: claims.linkId, escalationId: claims.escalationId, recipient: claims.recipient, decision: claims.decision, contentHash: claims.contentHash, expiresAt, createdAt: input.now }, select: { id: true } });
  return { url: `${input.baseUrl.replace(/\/+$/, "")}/decide/${signDecisionLink(decisionLinkKey(input.authSecret), claims)}`, expiresAt };
}

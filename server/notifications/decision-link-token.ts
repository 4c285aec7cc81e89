import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** What a one-click decision link is bound to; the signature covers every field. */
export interface DecisionLinkClaims {
  readonly linkId: string;
  readonly escalationId: string;
  readonly recipient: string;
  readonly decision: "approve" | "reject";
  readonly contentHash: string;
  readonly expiresAt: Date;
}

/** A link id: 128 random bits, URL-safe. */
export function newDecisionLinkId(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * The link's key, derived from the deployment's auth secret for this one purpose, so a link's
 * signature can never be replayed as a session cookie's (or the other way round).
 */
export function decisionLinkKey(authSecret: string): Buffer {
  return createHmac("sha256", authSecret).update("dualstate decision links v1").digest();
}

function signature(key: Buffer, claims: DecisionLinkClaims): Buffer {
  const fields = [claims.linkId, claims.escalationId, claims.recipient.toLowerCase(), claims.decision, claims.contentHash, claims.expiresAt.toISOString()];
  return createHmac("sha256", key).update(fields.join("\u0000")).digest();
}

/** The token a link's URL carries: the link id and the signature of its claims. */
export function signDecisionLink(key: Buffer, claims: DecisionLinkClaims): string {
  return `${claims.linkId}.${signature(key, claims).toString("base64url")}`;
}

/** A token's parts, or why it is not one (it comes from a URL: anything may be in it). */
export function parseDecisionLinkToken(token: string): { linkId: string; signature: string } | null {
  if (token.length > 200) return null;
  const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { linkId: match[1]!, signature: match[2]! } : null;
}

/** Whether `presented` is the signature of `claims` (constant-time). */
export function verifyDecisionLinkSignature(key: Buffer, claims: DecisionLinkClaims, presented: string): boolean {
  const expected = signature(key, claims);
  const given = Buffer.from(presented, "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

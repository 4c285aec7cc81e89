import { describe, expect, it } from "vitest";
import { decisionLinkKey, newDecisionLinkId, parseDecisionLinkToken, signDecisionLink, verifyDecisionLinkSignature, type DecisionLinkClaims } from "./decision-link-token";

const key = decisionLinkKey("a".repeat(64));
const claims: DecisionLinkClaims = {
  linkId: newDecisionLinkId(),
  escalationId: "esc-1",
  recipient: "Reviewer@Example.com",
  decision: "approve",
  contentHash: "f".repeat(64),
  expiresAt: new Date("2026-12-01T00:00:00.000Z"),
};

describe("decision link tokens", () => {
  it("verifies the token it signed", () => {
    const token = signDecisionLink(key, claims);
    const parsed = parseDecisionLinkToken(token);
    expect(parsed?.linkId).toBe(claims.linkId);
    expect(verifyDecisionLinkSignature(key, claims, parsed!.signature)).toBe(true);
  });

  it("treats the recipient's address case-insensitively, as sign-in does", () => {
    const { signature } = parseDecisionLinkToken(signDecisionLink(key, claims))!;
    expect(verifyDecisionLinkSignature(key, { ...claims, recipient: "reviewer@example.com" }, signature)).toBe(true);
  });

  it.each([
    ["escalation", { escalationId: "esc-2" }],
    ["recipient", { recipient: "someone-else@example.com" }],
    ["decision", { decision: "reject" as const }],
    ["content hash", { contentHash: "e".repeat(64) }],
    ["expiry", { expiresAt: new Date("2026-12-02T00:00:00.000Z") }],
    ["link id", { linkId: newDecisionLinkId() }],
  ])("refuses a signature when the %s differs", (_field, change) => {
    const { signature } = parseDecisionLinkToken(signDecisionLink(key, claims))!;
    expect(verifyDecisionLinkSignature(key, { ...claims, ...change }, signature)).toBe(false);
  });

  it("refuses a signature made with another secret", () => {
    const other = decisionLinkKey("b".repeat(64));
    const { signature } = parseDecisionLinkToken(signDecisionLink(other, claims))!;
    expect(verifyDecisionLinkSignature(key, claims, signature)).toBe(false);
  });

  it.each(["", "abc", "x".repeat(500), `${claims.linkId}.`, `${claims.linkId}.short`, `../${claims.linkId}.${"A".repeat(43)}`, `${claims.linkId}.${"A".repeat(43)}.extra`])("does not parse %j", (token) => {
    expect(parseDecisionLinkToken(token)).toBeNull();
  });

  it("refuses a truncated or padded signature without throwing", () => {
    const { signature } = parseDecisionLinkToken(signDecisionLink(key, claims))!;
    expect(verifyDecisionLinkSignature(key, claims, signature.slice(0, 20))).toBe(false);
    expect(verifyDecisionLinkSignature(key, claims, `${signature}AAAA`)).toBe(false);
  });
});

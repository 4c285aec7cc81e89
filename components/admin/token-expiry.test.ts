import { describe, expect, it } from "vitest";
import { expiryFrom, tokenStatus } from "./token-expiry";

const NOW = new Date(2026, 10, 25, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

describe("expiryFrom", () => {
  it("counts days from now, or ends the chosen day", () => {
    expect(expiryFrom("30", "", NOW)).toEqual(new Date(NOW.getTime() + 30 * DAY));
    expect(expiryFrom("date", "2026-12-24", NOW)).toEqual(new Date(2026, 11, 24, 23, 59, 59));
    expect(expiryFrom("date", "", NOW)).toBeNull();
  });
});

describe("tokenStatus", () => {
  it.each([
    [{ revokedAt: NOW, expiresAt: new Date(NOW.getTime() + DAY) }, { state: "revoked", text: "revoked" }],
    [{ revokedAt: null, expiresAt: new Date(NOW.getTime() - DAY) }, { state: "expired", text: "expired yesterday" }],
    [{ revokedAt: null, expiresAt: new Date(NOW.getTime() + 3 * DAY) }, { state: "active", text: "expires in 3 days" }],
    [{ revokedAt: null, expiresAt: null }, { state: "no expiry", text: "never expires (made before tokens had to)" }],
  ])("%#", (token, status) => {
    expect(tokenStatus(token, NOW.getTime())).toEqual(status);
  });
});

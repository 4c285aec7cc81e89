import { describe, expect, it } from "vitest";
import { hashSlackVerificationCode, newSlackVerificationCode, parseSlackVerificationCode, slackVerificationHashesMatch } from "./slack-verification-code";

const SECRET = "s".repeat(64);
const ADA = { userId: "u-ada", slackUserId: "U0ADA" };

describe("Slack verification codes", () => {
  it("are eight base32 characters in two groups, different each time", () => {
    const codes = new Set(Array.from({ length: 200 }, () => newSlackVerificationCode()));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  });

  it("are read as typed: any case, spaces and dashes, O for 0 and I or L for 1; anything else is refused with the shape expected", () => {
    expect(parseSlackVerificationCode(" 7kx2 m9qd ")).toEqual({ ok: true, code: "7KX2M9QD" });
    expect(parseSlackVerificationCode("O1IL-ABCD")).toEqual({ ok: true, code: "0111ABCD" });
    for (const wrong of ["", "7KX2-M9Q", "7KX2-M9QDX", "7KX2-M9Q!", "7KX2-M9QU"]) expect(parseSlackVerificationCode(wrong)).toEqual({ ok: false, problem: expect.stringContaining("8-character code") });
  });

  it("are stored as a hash bound to the account and the member id, compared in constant time", () => {
    const stored = hashSlackVerificationCode(SECRET, ADA, "7KX2-M9QD");
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain("7KX2");
    expect(slackVerificationHashesMatch(stored, hashSlackVerificationCode(SECRET, ADA, "7KX2M9QD"))).toBe(true);
    expect(slackVerificationHashesMatch(stored, hashSlackVerificationCode(SECRET, ADA, "7KX2M9QE"))).toBe(false);
    expect(slackVerificationHashesMatch(stored, hashSlackVerificationCode(SECRET, { ...ADA, userId: "u-eve" }, "7KX2M9QD"))).toBe(false);
    expect(slackVerificationHashesMatch(stored, hashSlackVerificationCode(SECRET, { ...ADA, slackUserId: "U0EVE" }, "7KX2M9QD"))).toBe(false);
    expect(slackVerificationHashesMatch(stored, hashSlackVerificationCode("t".repeat(64), ADA, "7KX2M9QD"))).toBe(false);
    expect(slackVerificationHashesMatch(stored, "")).toBe(false);
  });
});

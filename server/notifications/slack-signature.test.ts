import { describe, expect, it } from "vitest";
import { signSlackRequest, SlackReplayGuard, verifySlackSignature } from "./slack-signature";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const BODY = "payload=%7B%22type%22%3A%22block_actions%22%7D";
const NOW = new Date("2026-11-26T12:00:00.000Z");
const TS = String(NOW.getTime() / 1000);

describe("Slack request signatures", () => {
  it("matches Slack's documented example", () => {
    // api.slack.com/authentication/verifying-requests-from-slack
    const body = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    expect(signSlackRequest(SECRET, "1531420618", body)).toBe("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503");
  });

  it("accepts a request signed with the secret within five minutes either way", () => {
    for (const skew of [0, -299, 299]) {
      const timestamp = String(NOW.getTime() / 1000 + skew);
      expect(verifySlackSignature({ signingSecret: SECRET, timestamp, signature: signSlackRequest(SECRET, timestamp, BODY), body: BODY, now: NOW })).toEqual({ ok: true });
    }
  });

  it.each([
    ["another secret", { signature: signSlackRequest("another-secret-of-some-length", TS, BODY) }, "does not match"],
    ["a changed body", { body: `${BODY}&x=1` }, "does not match"],
    ["a changed timestamp", { timestamp: String(Number(TS) + 1) }, "does not match"],
    ["an old request", { timestamp: String(Number(TS) - 301), signature: signSlackRequest(SECRET, String(Number(TS) - 301), BODY) }, "more than five minutes"],
    ["a request from the future", { timestamp: String(Number(TS) + 301), signature: signSlackRequest(SECRET, String(Number(TS) + 301), BODY) }, "more than five minutes"],
    ["no signature", { signature: null }, "missing"],
    ["no timestamp", { timestamp: null }, "missing"],
    ["a timestamp that is not a number", { timestamp: "1e9" }, "not a Unix time"],
    ["a v1 signature", { signature: `v1=${"a".repeat(64)}` }, "not a v0 signature"],
    ["a short signature", { signature: "v0=abcd" }, "not a v0 signature"],
    ["an upper-case signature", { signature: signSlackRequest(SECRET, TS, BODY).toUpperCase() }, "not a v0 signature"],
  ])("refuses %s", (_what, change, reason) => {
    const request = { signingSecret: SECRET, timestamp: TS as string | null, signature: signSlackRequest(SECRET, TS, BODY) as string | null, body: BODY, now: NOW, ...change };
    const result = verifySlackSignature(request);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });
});

describe("replay guard", () => {
  it("accepts a signature once within the window, and forgets it after", () => {
    const guard = new SlackReplayGuard();
    expect(guard.firstUse("v0=a", NOW)).toBe(true);
    expect(guard.firstUse("v0=a", new Date(NOW.getTime() + 60_000))).toBe(false);
    expect(guard.firstUse("v0=b", NOW)).toBe(true);
    // Past twice the window the timestamp check refuses it anyway; the entry is dropped.
    expect(guard.firstUse("v0=c", new Date(NOW.getTime() + 11 * 60_000))).toBe(true);
    expect(guard.firstUse("v0=a", new Date(NOW.getTime() + 11 * 60_000))).toBe(true);
  });

  it("stays bounded, dropping the oldest first", () => {
    const guard = new SlackReplayGuard(3);
    for (const signature of ["1", "2", "3", "4"]) expect(guard.firstUse(signature, NOW)).toBe(true);
    expect(guard.firstUse("4", NOW)).toBe(false);
    expect(guard.firstUse("1", NOW)).toBe(true);
  });
});

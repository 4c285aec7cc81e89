import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Slack's request signature (api.slack.com/authentication/verifying-requests-from-slack):
 * X-Slack-Signature is "v0=" + hex HMAC-SHA256 of "v0:<X-Slack-Request-Timestamp>:<raw body>"
 * under the app's signing secret. A request older (or newer) than five minutes is refused, so a
 * captured request cannot be replayed later; a replay inside that window is refused by
 * SlackReplayGuard.
 */
export const SLACK_SIGNATURE_MAX_AGE_SECONDS = 5 * 60;

export function signSlackRequest(signingSecret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

export type SlackSignatureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export function verifySlackSignature(input: { signingSecret: string; timestamp: string | null; signature: string | null; body: string; now: Date }): SlackSignatureCheck {
  const { timestamp, signature } = input;
  if (!timestamp || !signature) return { ok: false, reason: "missing X-Slack-Request-Timestamp or X-Slack-Signature" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "X-Slack-Request-Timestamp is not a Unix time" };
  const age = Math.abs(input.now.getTime() / 1000 - Number(timestamp));
  if (age > SLACK_SIGNATURE_MAX_AGE_SECONDS) return { ok: false, reason: "X-Slack-Request-Timestamp is more than five minutes from now" };
  if (!/^v0=[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: "X-Slack-Signature is not a v0 signature" };
  const expected = Buffer.from(signSlackRequest(input.signingSecret, timestamp, input.body), "utf8");
  const given = Buffer.from(signature, "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "X-Slack-Signature does not match" };
  return { ok: true };
}

/**
 * Remembers the signatures seen in the last five minutes (the window a timestamp is accepted in),
 * so the same signed request is acted on once. Bounded: past `maxEntries` the oldest are dropped
 * first, which only reopens the window for requests older than every kept one.
 */
export class SlackReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxEntries = 10_000) {}

  /** True the first time `signature` is presented within the window; false for a replay. */
  firstUse(signature: string, now: Date): boolean {
    const cutoff = now.getTime() - SLACK_SIGNATURE_MAX_AGE_SECONDS * 1000 * 2;
    for (const [key, at] of this.seen) {
      if (at >= cutoff && this.seen.size < this.maxEntries) break;
      this.seen.delete(key);
    }
    if (this.seen.has(signature)) return false;
    this.seen.set(signature, now.getTime());
    return true;
  }
}

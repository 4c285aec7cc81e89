import { createHmac, timingSafeEqual } from "node:crypto";

/** The signature header: `sha256=` and the hex HMAC-SHA256 of `timestamp.body` under the shared secret. */
export const SIGNATURE_HEADER = "x-dualstate-signature";
export const TIMESTAMP_HEADER = "x-dualstate-timestamp";

export function signPayload(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** For receivers (and tests): whether `signature` is the one `secret` gives for this body and timestamp. */
export function verifySignature(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signPayload(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

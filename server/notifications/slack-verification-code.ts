import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

/**
 * The code that proves a person controls a Slack member id: Dualstate sends it to that member id
 * by direct message, and the person types it on their account page while signed in.
 *
 * Eight characters of Crockford's base32 (40 bits; no I, L, O or U to misread), shown as two
 * groups of four. Stored only as an HMAC under the deployment's auth secret, bound to the account
 * and the member id, so a leaked row neither reveals the code nor can be guessed offline, and a
 * code sent for one account or id cannot confirm another.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 8;

/** A new code from the CSPRNG, formatted for reading: "7KX2-M9QD". */
export function newSlackVerificationCode(): string {
  let code = "";
  for (let index = 0; index < CODE_LENGTH; index++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The code as typed (any case, spaces or dashes), or why it cannot be one. */
export function parseSlackVerificationCode(text: string): { ok: true; code: string } | { ok: false; problem: string } {
  // Crockford's decoding: O reads as 0, I and L as 1.
  const code = text.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (code.length === CODE_LENGTH && [...code].every((char) => ALPHABET.includes(char))) return { ok: true, code };
  return { ok: false, problem: "must be the 8-character code Dualstate sent you in Slack, such as 7KX2-M9QD" };
}

/** What is stored for a code: HMAC-SHA256 under the auth secret of the account, the member id and the code (hex). */
export function hashSlackVerificationCode(authSecret: string, binding: { userId: string; slackUserId: string }, code: string): string {
  const normalised = code.replace(/-/g, "");
  return createHmac("sha256", authSecret).update(`dualstate slack verification\n${binding.userId}\n${binding.slackUserId}\n${normalised}`).digest("hex");
}

/** Compares two stored hashes in constant time. */
export function slackVerificationHashesMatch(stored: string, candidate: string): boolean {
  const a = Buffer.from(stored, "hex");
  const b = Buffer.from(candidate, "hex");
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

import { createHash } from "node:crypto";
import type { CallIdentity } from "../ports/call-ledger";

/** The header that carries a call's idempotency key (OpenAI, Stripe-style APIs and deduplicating proxies read it). */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/**
 * The identity of the call `key` in the ledger `ledgerId` (a run's id). The idempotency key is a
 * digest rather than the key itself: keys carry step names (any Unicode, any length) and an HTTP
 * header takes neither; the ledger records both side by side, so one leads to the other.
 */
export function callIdentity(ledgerId: string, key: string): CallIdentity {
  const digest = createHash("sha256").update(`${ledgerId}\n${key}`).digest("base64url").slice(0, 32);
  return { key, idempotencyKey: `dualstate-${digest}` };
}

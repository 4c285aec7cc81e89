import { createHmac, timingSafeEqual } from "node:crypto";

/** What the decision route tells the outcome page (app/decided); nothing else is read from its address. */
export const DECIDED_FIELDS = ["status", "escalation", "run", "votes", "reason"] as const;
export type DecidedFields = Partial<Record<(typeof DECIDED_FIELDS)[number], string>>;

/**
 * The outcome page shows text from its address, so the decision route signs that address: a
 * crafted one ("Escalation approved", or a `reason` of someone's choosing) is not shown on the
 * deployment's own origin. The key is derived from the auth secret for this one purpose.
 */
function mac(authSecret: string, fields: DecidedFields): Buffer {
  const key = createHmac("sha256", authSecret).update("dualstate decided page v1").digest();
  return createHmac("sha256", key).update(DECIDED_FIELDS.map((name) => fields[name] ?? "").join("\u0000")).digest();
}

/** The outcome page's query string, signed. */
export function signedDecidedQuery(authSecret: string, fields: DecidedFields): string {
  const query = new URLSearchParams();
  for (const name of DECIDED_FIELDS) if (fields[name]) query.set(name, fields[name]);
  query.set("sig", mac(authSecret, fields).toString("base64url"));
  return query.toString();
}

/** The fields of a signed query (constant-time check), or null when it was not signed here. */
export function verifiedDecidedQuery(authSecret: string, query: Record<string, string | string[] | undefined>): DecidedFields | null {
  const text = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : "");
  const fields: DecidedFields = Object.fromEntries(DECIDED_FIELDS.map((name) => [name, text(name)]));
  const expected = mac(authSecret, fields);
  const given = Buffer.from(text("sig"), "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected) ? fields : null;
}

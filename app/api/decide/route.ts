import { authSecret } from "@/server/auth/auth-secret";
import { currentActor } from "@/server/auth/app-auth";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { decideByLink } from "@/server/services/decision-links/decide-by-link";
import { signedDecidedQuery, type DecidedFields } from "@/server/services/decision-links/decided-page-query";
import { wakeOutboxDispatchers } from "@/server/services/outbox/outbox-signal";

export const runtime = "nodejs";

/** A confirmation form is a few hundred bytes plus optional feedback; anything bigger is refused unread. */
const MAX_BODY_BYTES = 64 * 1024;

/** The confirmation page's form: decides through the link, then shows the outcome (303, so a reload does not post again). */
export async function POST(request: Request): Promise<Response> {
  const length = Number(request.headers.get("content-length") ?? "NaN");
  if (!Number.isFinite(length) || length > MAX_BODY_BYTES) return new Response("The form is too large or has no length.", { status: 413 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return new Response("Expected a form.", { status: 400 });
  }
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const db = getDb();
  const secret = await authSecret(db, getEnv().DUALSTATE_AUTH_SECRET);
  const actor = await currentActor(request.headers).catch(() => null);
  const used = await decideByLink(db, secret, { token: field("token"), contentHash: field("contentHash"), comment: field("comment") }, { signedInAs: actor?.email ?? null });
  if (used.ok) wakeOutboxDispatchers();
  // A vote under a quorum: the page says where the votes stand.
  const said: DecidedFields = used.ok
    ? { status: used.outcome.status, escalation: used.outcome.escalationId, run: used.outcome.runId, ...(used.outcome.quorum ? { votes: used.outcome.quorum.summary } : {}) }
    : { reason: used.reason, ...(used.escalationId ? { escalation: used.escalationId } : {}) };
  // A relative address: behind a proxy the request's own URL may name an internal host, and the
  // page's form-action 'self' policy would block a redirect there. Signed, so the page shows only
  // what was said here.
  return new Response(null, { status: 303, headers: { location: `/decided?${signedDecidedQuery(secret, said)}` } });
}

import { authSecret } from "@/server/auth/auth-secret";
import { currentActor } from "@/server/auth/app-auth";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { decideByLink } from "@/server/services/decision-links/decide-by-link";
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
  const actor = await currentActor(request.headers).catch(() => null);
  const used = await decideByLink(db, await authSecret(db, getEnv().DUALSTATE_AUTH_SECRET), { token: field("token"), contentHash: field("contentHash"), comment: field("comment") }, { signedInAs: actor?.email ?? null });
  // A relative address: behind a proxy the request's own URL may name an internal host, and the
  // page's form-action 'self' policy would block a redirect there.
  const target = new URLSearchParams();
  if (used.ok) {
    wakeOutboxDispatchers();
    target.set("status", used.outcome.status);
    target.set("escalation", used.outcome.escalationId);
    target.set("run", used.outcome.runId);
    // A vote under a quorum: the page says where the votes stand.
    if (used.outcome.quorum) target.set("votes", used.outcome.quorum.summary);
  } else {
    target.set("reason", used.reason);
    if (used.escalationId) target.set("escalation", used.escalationId);
  }
  return new Response(null, { status: 303, headers: { location: `/decided?${target.toString()}` } });
}

import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";
import { requestOrigin, type DualstateAuth } from "./auth-instance";
import { readSignInBody, type SignInBody } from "./sign-in-body";
import type { SignInLimiter } from "./sign-in-limiter";

export interface SignInDeps {
  readonly auth: DualstateAuth;
  readonly db: Db;
  readonly limiter: SignInLimiter;
  /** The client's address: the connection's, or what trusted proxies report (server/auth/client-address.ts). */
  readonly address: string;
  readonly baseUrl?: string;
}

/** Who better-auth signed in, from its own answer (never from the request). */
async function signedInUser(response: Response): Promise<{ id: string; email: string } | null> {
  const answer = (await response.clone().json().catch(() => null)) as { user?: { id?: unknown; email?: unknown } } | null;
  const user = answer?.user;
  return typeof user?.id === "string" && typeof user.email === "string" ? { id: user.id, email: user.email } : null;
}

/** The request better-auth sees: the same headers, and a body made from the one parse. */
function forSignIn(request: Request, body: SignInBody): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  return new Request(request.url, { method: "POST", headers, body: JSON.stringify(body) });
}

/**
 * POST /api/auth/sign-in/email through better-auth, with attempts limited and every outcome in
 * the audit log. Answers like better-auth does ({ message, code }), plus 415 for a body that is not
 * JSON and 429 when limited.
 */
export async function handleSignIn(request: Request, deps: SignInDeps): Promise<Response> {
  // Only this site's own sign-in page may sign someone in (no login CSRF from other sites).
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== requestOrigin(request) && origin !== deps.baseUrl?.replace(/\/$/, "")) {
    return Response.json({ message: "Sign-in must come from this site's own page", code: "INVALID_ORIGIN" }, { status: 403 });
  }
  const read = await readSignInBody(request);
  if (!read.ok) return Response.json({ message: read.message, code: read.code }, { status: read.status });
  const { email } = read.body;
  const ip = deps.address;

  const verdict = deps.limiter.attempt(email, ip);
  if (!verdict.allowed) {
    await recordAuditEvent(deps.db, { actor: { id: null, email }, action: "sign_in.limited", target: `user:${email}`, detail: { reason: verdict.reason }, ip });
    return Response.json(
      { message: `Too many sign-in attempts (${verdict.reason}); try again in ${verdict.retryAfterSeconds} seconds`, code: "TOO_MANY_ATTEMPTS" },
      { status: 429, headers: { "retry-after": String(verdict.retryAfterSeconds) } },
    );
  }
  const response = await deps.auth.handler(forSignIn(request, read.body));
  const user = response.ok ? await signedInUser(response) : null;
  if (user) {
    deps.limiter.succeeded(email);
    await recordAuditEvent(deps.db, { actor: user, action: "sign_in.succeeded", target: `user:${user.email}`, ip });
  } else {
    deps.limiter.failed(email);
    const code = ((await response.clone().json().catch(() => null)) as { code?: unknown } | null)?.code;
    await recordAuditEvent(deps.db, { actor: { id: null, email }, action: "sign_in.failed", target: `user:${email}`, detail: { status: response.status, ...(typeof code === "string" ? { code } : {}) }, ip });
  }
  return response;
}

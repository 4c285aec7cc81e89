import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";
import { requestOrigin, type DualstateAuth } from "./auth-instance";
import type { SignInLimiter } from "./sign-in-limiter";

/** The client's address as the proxy in front reports it ("local" when there is none). */
export function clientAddress(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip")?.trim() || "local";
}

/**
 * POST /api/auth/sign-in/email through better-auth, with attempts limited and every outcome in
 * the audit log. Answers like better-auth does ({ message, code }), plus 429 when limited.
 */
export async function handleSignIn(request: Request, deps: { auth: DualstateAuth; db: Db; limiter: SignInLimiter; baseUrl?: string }): Promise<Response> {
  // Only this site's own sign-in page may sign someone in (no login CSRF from other sites).
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== requestOrigin(request) && origin !== deps.baseUrl?.replace(/\/$/, "")) {
    return Response.json({ message: `Sign-in must come from this site's own page, not from ${origin}`, code: "INVALID_ORIGIN" }, { status: 403 });
  }
  let email = "";
  try {
    const body = (await request.clone().json()) as { email?: unknown };
    if (typeof body.email === "string") email = body.email.trim().toLowerCase();
  } catch {
    return Response.json({ message: "Send the email and password as JSON", code: "INVALID_BODY" }, { status: 400 });
  }
  const ip = clientAddress(request.headers);
  const verdict = deps.limiter.attempt(email, ip);
  if (!verdict.allowed) {
    await recordAuditEvent(deps.db, { actor: { id: null, email: email || "(none)" }, action: "sign_in.limited", target: `user:${email}`, detail: { reason: verdict.reason }, ip });
    return Response.json(
      { message: `Too many sign-in attempts (${verdict.reason}); try again in ${verdict.retryAfterSeconds} seconds`, code: "TOO_MANY_ATTEMPTS" },
      { status: 429, headers: { "retry-after": String(verdict.retryAfterSeconds) } },
    );
  }
  const response = await deps.auth.handler(request);
  if (response.ok) {
    deps.limiter.succeeded(email);
    const user = await deps.db.user.findUnique({ where: { email }, select: { id: true } });
    await recordAuditEvent(deps.db, { actor: { id: user?.id ?? null, email }, action: "sign_in.succeeded", target: `user:${email}`, ip });
  } else {
    deps.limiter.failed(email);
    await recordAuditEvent(deps.db, { actor: { id: null, email: email || "(none)" }, action: "sign_in.failed", target: `user:${email}`, detail: { status: response.status }, ip });
  }
  return response;
}

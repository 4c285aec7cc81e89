import { appAuth, currentActor } from "@/server/auth/app-auth";
import { SignInLimiter } from "@/server/auth/sign-in-limiter";
import { handleSignIn } from "@/server/auth/sign-in-route";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

export const runtime = "nodejs";

const globalForLimiter = globalThis as unknown as { dualstateSignInLimiter?: SignInLimiter };
const limiter = (globalForLimiter.dualstateSignInLimiter ??= new SignInLimiter());

export async function GET(request: Request): Promise<Response> {
  return (await appAuth()).handler(request);
}

export async function POST(request: Request): Promise<Response> {
  const auth = await appAuth();
  const path = new URL(request.url).pathname;
  if (path.endsWith("/sign-in/email")) return handleSignIn(request, { auth, db: getDb(), limiter, baseUrl: getEnv().DUALSTATE_BASE_URL });
  if (path.endsWith("/sign-out")) {
    const actor = await currentActor(request.headers);
    const response = await auth.handler(request);
    if (actor) await recordAuditEvent(getDb(), { actor, action: "sign_out", target: `user:${actor.email}` });
    return response;
  }
  return auth.handler(request);
}

import { appAuth, currentActor } from "@/server/auth/app-auth";
import { clientAddress } from "@/server/auth/client-address";
import { connectionPeer } from "@/server/auth/connection-peer";
import { SignInLimiter } from "@/server/auth/sign-in-limiter";
import { handleSignIn } from "@/server/auth/sign-in-route";
import { TrustedProxies } from "@/server/auth/trusted-proxies";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

export const runtime = "nodejs";

const globalForLimiter = globalThis as unknown as { dualstateSignInLimiter?: SignInLimiter; dualstateTrustedProxies?: TrustedProxies };
const limiter = (globalForLimiter.dualstateSignInLimiter ??= new SignInLimiter());

function trustedProxies(): TrustedProxies {
  return (globalForLimiter.dualstateTrustedProxies ??= new TrustedProxies(getEnv().DUALSTATE_TRUSTED_PROXIES ?? []));
}

export async function GET(request: Request): Promise<Response> {
  return (await appAuth()).handler(request);
}

export async function POST(request: Request): Promise<Response> {
  const auth = await appAuth();
  const path = new URL(request.url).pathname;
  if (path.endsWith("/sign-in/email")) {
    const address = clientAddress(connectionPeer(request.headers), request.headers, trustedProxies());
    return handleSignIn(request, { auth, db: getDb(), limiter, address, baseUrl: getEnv().DUALSTATE_BASE_URL });
  }
  if (path.endsWith("/sign-out")) {
    const actor = await currentActor(request.headers);
    const response = await auth.handler(request);
    if (actor) await recordAuditEvent(getDb(), { actor, action: "sign_out", target: `user:${actor.email}` });
    return response;
  }
  return auth.handler(request);
}

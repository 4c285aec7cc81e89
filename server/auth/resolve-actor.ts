import type { Actor, Role } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { checkApiToken } from "@/server/services/api-tokens/api-tokens";
import type { DualstateAuth } from "./auth-instance";

/** Who a request is, and how: the session it came in (to keep it when others end), or why its credentials were refused. */
export interface RequestCredentials {
  readonly actor: Actor | null;
  /** The browser session's id; absent for API tokens and anonymous requests. */
  readonly sessionId?: string;
  /** Said instead of "Sign in first" when the credentials were refused for a reason their holder may know (an expired token). */
  readonly problem?: string;
}

/**
 * Who is making a request: the holder of a personal API token (`Authorization: Bearer dst_…`), or
 * the person whose session cookie it carries; no actor when neither is valid (or the user is disabled).
 */
export async function resolveCredentials(db: Db, headers: Headers, auth: () => Promise<DualstateAuth>): Promise<RequestCredentials> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) return { actor: null, problem: "The Authorization header must be: Bearer <token>" };
    const check = await checkApiToken(db, match[1]!);
    return check.actor ? { actor: check.actor } : { actor: null, ...(check.problem ? { problem: check.problem } : {}) };
  }
  const session = await (await auth()).api.getSession({ headers });
  if (!session) return { actor: null };
  const user = session.user as { id: string; email: string; role?: string; disabled?: boolean };
  if (user.disabled) return { actor: null };
  return { actor: { id: user.id, email: user.email, role: (user.role ?? "viewer") as Role, via: "session" }, sessionId: session.session.id };
}

export async function resolveActor(db: Db, headers: Headers, auth: () => Promise<DualstateAuth>): Promise<Actor | null> {
  return (await resolveCredentials(db, headers, auth)).actor;
}

import type { Actor, Role } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { actorForApiToken } from "@/server/services/api-tokens/api-tokens";
import type { DualstateAuth } from "./auth-instance";

/**
 * Who is making a request: the holder of a personal API token (`Authorization: Bearer dst_…`), or
 * the person whose session cookie it carries; null when neither is valid (or the user is disabled).
 */
export async function resolveActor(db: Db, headers: Headers, auth: () => Promise<DualstateAuth>): Promise<Actor | null> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    return match ? actorForApiToken(db, match[1]!) : null;
  }
  const session = await (await auth()).api.getSession({ headers });
  if (!session) return null;
  const user = session.user as { id: string; email: string; role?: string; disabled?: boolean };
  if (user.disabled) return null;
  return { id: user.id, email: user.email, role: (user.role ?? "viewer") as Role, via: "session" };
}

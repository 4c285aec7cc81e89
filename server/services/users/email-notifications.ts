import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";

/** Whether the signed-in person gets escalation emails (only reviewers and admins are ever sent one). */
export async function emailNotificationsOf(db: Db, actor: Actor): Promise<{ enabled: boolean }> {
  const user = await db.user.findUnique({ where: { email: actor.email }, select: { notifyByEmail: true } });
  if (!user) throw notFound("User", actor.email);
  return { enabled: user.notifyByEmail };
}

/** Turns the signed-in person's escalation emails on or off; emails already queued still go out. */
export async function setEmailNotifications(db: Db, actor: Actor, enabled: boolean): Promise<{ enabled: boolean }> {
  const updated = await db.user.updateMany({ where: { email: actor.email }, data: { notifyByEmail: enabled } });
  if (updated.count !== 1) throw notFound("User", actor.email);
  return { enabled };
}

import type { Db } from "@/server/persistence/db";
import type { Actor, Role } from "@/server/api/trpc";
import { conflict, notFound } from "@/server/services/errors";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

export async function listUsers(db: Db) {
  return db.user.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, email: true, name: true, role: true, disabled: true, createdAt: true } });
}

export interface UserChange {
  readonly userId: string;
  readonly role?: Role;
  readonly disabled?: boolean;
}

/**
 * Changes a user's role or disables them. Disabling ends their sessions and stops their tokens.
 * The last enabled admin cannot be demoted or disabled: someone must be able to manage users.
 */
export async function updateUser(db: Db, change: UserChange, by: Actor) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: change.userId } });
    if (!user) throw notFound("User", change.userId);
    const losesAdmin = user.role === "admin" && !user.disabled && ((change.role !== undefined && change.role !== "admin") || change.disabled === true);
    if (losesAdmin && (await tx.user.count({ where: { role: "admin", disabled: false } })) <= 1) {
      throw conflict(`${user.email} is the last admin; make someone else an admin first`);
    }
    const updated = await tx.user.update({ where: { id: user.id }, data: { role: change.role, disabled: change.disabled } });
    if (change.disabled) await tx.session.deleteMany({ where: { userId: user.id } });
    await recordAuditEvent(tx, {
      actor: by,
      action: "user.updated",
      target: `user:${user.email}`,
      detail: { ...(change.role !== undefined ? { role: { from: user.role, to: change.role } } : {}), ...(change.disabled !== undefined ? { disabled: change.disabled } : {}) },
    });
    return { id: updated.id, email: updated.email, role: updated.role, disabled: updated.disabled };
  });
}

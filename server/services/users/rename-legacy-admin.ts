import type { Db } from "@/server/persistence/db";
import { normalizeAccountEmail } from "@/server/auth/account-email";
import { recordAuditEvent } from "@/server/services/audit/record-audit-event";

/**
 * The first admin's default address in earlier versions. The sign-in refuses it (no dot in the
 * domain), so an admin created with it could never sign in.
 */
export const LEGACY_DEFAULT_ADMIN_EMAIL = "admin@localhost";

export type LegacyAdminRename =
  | { readonly outcome: "none" }
  | { readonly outcome: "renamed"; readonly from: string; readonly to: string }
  | { readonly outcome: "taken"; readonly from: string; readonly to: string };

/**
 * On start: gives the account an earlier version created as admin@localhost the configured admin
 * address, so it can sign in with its old password. Its id, role, password, sessions and tokens
 * are kept; the audit log records the change. Nothing happens when no such account exists, and
 * when the new address belongs to another account the caller is told (nothing is merged).
 */
export async function renameLegacyDefaultAdmin(db: Db, configuredAdminEmail: string): Promise<LegacyAdminRename> {
  const from = LEGACY_DEFAULT_ADMIN_EMAIL;
  const to = normalizeAccountEmail(configuredAdminEmail);
  const legacy = await db.user.findUnique({ where: { email: from }, select: { id: true, role: true } });
  if (!legacy) return { outcome: "none" };
  if (await db.user.findUnique({ where: { email: to }, select: { id: true } })) return { outcome: "taken", from, to };
  const renamed = await db.$transaction(async (tx) => {
    // updateMany by the old address: a second process starting at the same time renames nothing.
    const { count } = await tx.user.updateMany({ where: { id: legacy.id, email: from }, data: { email: to } });
    if (count === 1) await recordAuditEvent(tx, { actor: { id: null, email: "dualstate" }, action: "user.updated", target: `user:${to}`, detail: { email: { from, to }, reason: "the sign-in refuses an address without a dot in its domain" } });
    return count === 1;
  });
  return renamed ? { outcome: "renamed", from, to } : { outcome: "none" };
}

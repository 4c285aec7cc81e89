import type { Db } from "../../../persistence/db";
import { canDecide, type Decider } from "../../../services/escalations/decision-kinds";
import { UsageError } from "../../usage-error";

/**
 * The person `--as` names: an existing, enabled reviewer or admin. The CLI has the database's
 * trust, so it cannot check a password; naming a real account keeps the audit trail true.
 */
export async function deciderFromEmail(db: Db, command: string, email: string | undefined): Promise<Decider> {
  if (!email) throw new UsageError(`dualstate escalations ${command}: --as EMAIL is required (the reviewer who decides)`);
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true, role: true, disabled: true } });
  if (!user) throw new UsageError(`dualstate escalations ${command}: --as ${email}: no user has this email (admins create users under Admin → Users)`);
  if (user.disabled) throw new UsageError(`dualstate escalations ${command}: --as ${email}: this user is disabled`);
  if (!canDecide(user.role)) throw new UsageError(`dualstate escalations ${command}: --as ${email}: ${email} is a ${user.role}; only reviewers and admins decide escalations`);
  return { id: user.id, email: user.email, role: user.role };
}

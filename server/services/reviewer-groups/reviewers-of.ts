import type { Db } from "@/server/persistence/db";
import { DECIDING_ROLES } from "../escalations/decision-kinds";

export interface Reviewer {
  readonly id: string;
  readonly email: string;
  readonly notifyByEmail: boolean;
  readonly notifyBySlack: boolean;
  readonly slackUserId: string | null;
}

/**
 * The people an escalation offered to `group` reaches: enabled users whose role may decide and, for a
 * group, who are its members. `null` is every reviewer (no routing, or a rule without a group). A
 * group that no longer exists reaches nobody; the routing validator and the groups page say so.
 */
export async function reviewersOf(db: Db, group: string | null): Promise<Reviewer[]> {
  return db.user.findMany({
    where: {
      role: { in: [...DECIDING_ROLES] },
      disabled: false,
      ...(group === null ? {} : { groups: { some: { group: { name: group } } } }),
    },
    select: { id: true, email: true, notifyByEmail: true, notifyBySlack: true, slackUserId: true },
    orderBy: { email: "asc" },
  });
}

/** Whether `email` may decide an escalation offered to `group` (null: any reviewer). */
export async function isReviewerOf(db: Db, group: string | null, email: string): Promise<boolean> {
  if (group === null) return true;
  const member = await db.reviewerGroupMember.findFirst({ where: { group: { name: group }, user: { email } }, select: { userId: true } });
  return member !== null;
}

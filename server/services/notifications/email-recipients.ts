import type { Db } from "@/server/persistence/db";
import type { EscalationPolicy } from "@/server/review-policy/escalation-policy";
import { reviewersOf } from "../reviewer-groups/reviewers-of";

/** The recipient of a row that records "no email for this escalation and event", so it is not looked at again. */
export const NOBODY = "(nobody)";

/**
 * Who is emailed about an escalation offered to `group` under `policy`: nobody when the policy's
 * channels leave email out or the group has email turned off; else the group's members (or every
 * reviewer, for no group) who want email. Cached per group for one pass.
 */
export function emailRecipientsFinder(db: Db): (group: string | null, policy: EscalationPolicy) => Promise<string[]> {
  const byGroup = new Map<string | null, Promise<string[]>>();
  const lookUp = async (group: string | null) => {
    if (group !== null) {
      const settings = await db.reviewerGroup.findUnique({ where: { name: group }, select: { notifyEmail: true } });
      if (!settings?.notifyEmail) return [];
    }
    return (await reviewersOf(db, group)).filter((reviewer) => reviewer.notifyByEmail).map((reviewer) => reviewer.email);
  };
  return async (group, policy) => {
    if (!policy.channels.includes("email")) return [];
    if (!byGroup.has(group)) byGroup.set(group, lookUp(group));
    return byGroup.get(group)!;
  };
}

import type { Db } from "@/server/persistence/db";
import { isReviewerOf } from "../reviewer-groups/reviewers-of";

/**
 * Who may decide an escalation that routing (or a hand-off) offered to a group: the group's members,
 * and admins, who may step in for any group. An escalation offered to nobody in particular (no
 * group) is anyone's who may decide. Returns why `decider` may not, or null.
 */
export async function groupRefusal(db: Db, reviewGroup: string | null, decider: { readonly email: string; readonly role: string | null | undefined }): Promise<string | null> {
  if (reviewGroup === null || decider.role === "admin") return null;
  if (await isReviewerOf(db, reviewGroup, decider.email)) return null;
  return `it is offered to the group ${reviewGroup}, and you are not in it (an admin may decide it, or add you to the group)`;
}

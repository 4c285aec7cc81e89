import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { notFound } from "../errors";

/** Removes a user from a group (escalations they already claimed stay theirs). */
export async function removeGroupMember(db: Db, input: { groupId: string; userId: string }, by: Actor): Promise<void> {
  await db.$transaction(async (tx) => {
    const member = await tx.reviewerGroupMember.findUnique({
      where: { groupId_userId: { groupId: input.groupId, userId: input.userId } },
      select: { group: { select: { name: true } }, user: { select: { email: true } } },
    });
    if (!member) throw notFound("Group member", input.userId);
    await tx.reviewerGroupMember.delete({ where: { groupId_userId: { groupId: input.groupId, userId: input.userId } } });
    await recordAuditEvent(tx, { actor: by, action: "reviewer_group.member_removed", target: `reviewer_group:${member.group.name}`, detail: { member: member.user.email } });
  });
}

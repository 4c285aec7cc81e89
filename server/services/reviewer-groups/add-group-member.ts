import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { DECIDING_ROLES } from "../escalations/decision-kinds";
import { conflict, invalidInput, notFound } from "../errors";
import { GROUP_LIMITS } from "./group-limits";
import { isUniqueConstraintViolation } from "../prisma-errors";

/** Adds the user with `email` to a group. Only people who may decide escalations can be members. */
export async function addGroupMember(db: Db, input: { groupId: string; email: string }, by: Actor): Promise<void> {
  const email = input.email.trim();
  try {
    await db.$transaction(async (tx) => {
      const group = await tx.reviewerGroup.findUnique({ where: { id: input.groupId }, select: { id: true, name: true } });
      if (!group) throw notFound("Reviewer group", input.groupId);
      const members = await tx.reviewerGroupMember.count({ where: { groupId: group.id } });
      if (members >= GROUP_LIMITS.maxMembers) throw invalidInput("email", `the group ${group.name} has ${members} members; the limit is ${GROUP_LIMITS.maxMembers}`);
      const user = await tx.user.findUnique({ where: { email }, select: { id: true, role: true } });
      if (!user) throw invalidInput("email", `no user has the address "${email}"`);
      if (!(DECIDING_ROLES as readonly string[]).includes(user.role)) throw invalidInput("email", `${email} is a ${user.role}, who cannot decide escalations; make them a reviewer first`);
      await tx.reviewerGroupMember.create({ data: { groupId: group.id, userId: user.id } });
      await recordAuditEvent(tx, { actor: by, action: "reviewer_group.member_added", target: `reviewer_group:${group.name}`, detail: { member: email } });
    });
  } catch (error) {
    if (isUniqueConstraintViolation(error)) throw conflict(`${email} is already a member`);
    throw error;
  }
}

import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { groupNameProblem } from "@/server/review-policy/group-name";
import { recordAuditEvent } from "../audit/record-audit-event";
import { conflict, invalidInput, notFound } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { groupInUse } from "./groups-in-use";

/**
 * Renames a group and its description. Refused while the routing document in force names it; the
 * pending escalations offered to it follow it to the new name (same transaction).
 */
export async function renameReviewerGroup(db: Db, input: { groupId: string; name: string; description?: string | null }, by: Actor): Promise<{ id: string; name: string }> {
  const name = input.name.trim();
  const problem = groupNameProblem(name);
  if (problem) throw invalidInput("name", problem);
  try {
    return await db.$transaction(async (tx) => {
      const group = await tx.reviewerGroup.findUnique({ where: { id: input.groupId }, select: { id: true, name: true } });
      if (!group) throw notFound("Reviewer group", input.groupId);
      if (group.name !== name) {
        const inUse = await groupInUse(tx, group.name, "renamed");
        if (inUse) throw conflict(inUse);
        await tx.escalation.updateMany({ where: { status: "pending", reviewGroup: group.name }, data: { reviewGroup: name } });
      }
      const description = input.description === undefined ? undefined : input.description?.trim() || null;
      const renamed = await tx.reviewerGroup.update({ where: { id: group.id }, data: { name, description }, select: { id: true, name: true } });
      await recordAuditEvent(tx, { actor: by, action: "reviewer_group.updated", target: `reviewer_group:${name}`, detail: group.name !== name ? { renamedFrom: group.name } : {} });
      return renamed;
    });
  } catch (error) {
    if (isUniqueConstraintViolation(error)) throw conflict(`A reviewer group named "${name}" already exists`);
    throw error;
  }
}

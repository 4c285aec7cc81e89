import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { conflict, notFound } from "../errors";
import { groupInUse } from "./groups-in-use";

/** Deletes a group and its memberships; refused while the routing document in force or a pending escalation names it. */
export async function deleteReviewerGroup(db: Db, groupId: string, by: Actor): Promise<void> {
  await db.$transaction(async (tx) => {
    const group = await tx.reviewerGroup.findUnique({ where: { id: groupId }, select: { id: true, name: true } });
    if (!group) throw notFound("Reviewer group", groupId);
    const inUse = await groupInUse(tx, group.name, "deleted");
    if (inUse) throw conflict(inUse);
    await tx.reviewerGroup.delete({ where: { id: group.id } });
    await recordAuditEvent(tx, { actor: by, action: "reviewer_group.deleted", target: `reviewer_group:${group.name}` });
  });
}

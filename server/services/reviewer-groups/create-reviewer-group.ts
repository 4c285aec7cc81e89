import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { groupNameProblem } from "@/server/review-policy/group-name";
import { recordAuditEvent } from "../audit/record-audit-event";
import { conflict, invalidInput } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { GROUP_LIMITS } from "./group-limits";

/** A new reviewer group, with no members; email on, Slack off. */
export async function createReviewerGroup(db: Db, input: { name: string; description?: string }, by: Actor): Promise<{ id: string; name: string }> {
  const name = input.name.trim();
  const problem = groupNameProblem(name);
  if (problem) throw invalidInput("name", problem);
  try {
    return await db.$transaction(async (tx) => {
      const groups = await tx.reviewerGroup.count();
      if (groups >= GROUP_LIMITS.maxGroups) throw invalidInput("name", `there are ${groups} reviewer groups; the limit is ${GROUP_LIMITS.maxGroups}`);
      const group = await tx.reviewerGroup.create({ data: { id: randomUUID(), name, description: input.description?.trim() || null }, select: { id: true, name: true } });
      await recordAuditEvent(tx, { actor: by, action: "reviewer_group.created", target: `reviewer_group:${name}` });
      return group;
    });
  } catch (error) {
    if (isUniqueConstraintViolation(error)) throw conflict(`A reviewer group named "${name}" already exists`);
    throw error;
  }
}

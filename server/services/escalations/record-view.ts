import type { Db } from "@/server/persistence/db";
import { isUniqueConstraintViolation } from "../prisma-errors";

/** Notes that `reviewer` has opened escalation `escalationId`'s review page (the first time counts). */
export async function recordEscalationView(db: Db, escalationId: string, reviewer: string, now = new Date()): Promise<void> {
  try {
    await db.escalationView.upsert({
      where: { escalationId_reviewer: { escalationId, reviewer } },
      create: { escalationId, reviewer, firstViewedAt: now },
      update: {},
      select: { escalationId: true },
    });
  } catch (error) {
    // Two tabs opening the page at once: the other insert won, and the view is recorded.
    if (!isUniqueConstraintViolation(error)) throw error;
  }
}

/** Whether `reviewer` has opened the escalation's review page. */
export async function hasSeenEscalation(db: Db, escalationId: string, reviewer: string): Promise<boolean> {
  return (await db.escalationView.count({ where: { escalationId, reviewer } })) > 0;
}

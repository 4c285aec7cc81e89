import { randomUUID } from "node:crypto";
import { CREATED_EVENT } from "@/server/notifications/reminder-event";
import type { Db } from "@/server/persistence/db";
import { DECIDING_ROLES } from "../escalations/decision-kinds";
import { isUniqueConstraintViolation } from "../prisma-errors";

/** How many escalations one pass looks at; the next pass takes the rest. */
const BATCH = 50;

/**
 * Queues an email to every reviewer who may decide and wants email, for each pending escalation
 * that has none queued yet. The escalation row (written in the run's transaction) is the event's
 * durable record: a crash before this step loses nothing, the next pass finds it. The unique
 * (escalation, recipient, channel, event) makes concurrent passes queue each email once.
 */
export async function queueEscalationEmails(db: Db, now = new Date()): Promise<number> {
  const reviewers = await db.user.findMany({ where: { role: { in: [...DECIDING_ROLES] }, disabled: false, notifyByEmail: true }, select: { email: true }, orderBy: { email: "asc" } });
  // Nobody to tell: every pending escalation would stay unqueued and be looked at again each pass.
  if (reviewers.length === 0) return 0;
  const escalations = await db.escalation.findMany({
    // Guard escalations: a budget escalation has no code to approve by link (docs/notifications.md).
    where: { status: "pending", kind: "guard", notifications: { none: { channel: "email", event: CREATED_EVENT } } },
    orderBy: { createdAt: "asc" },
    take: BATCH,
    select: { id: true },
  });
  let queued = 0;
  for (const escalation of escalations) {
    for (const reviewer of reviewers) {
      try {
        await db.notificationDelivery.create({
          data: { id: randomUUID(), escalationId: escalation.id, recipient: reviewer.email, channel: "email", event: CREATED_EVENT, nextAttemptAt: now, createdAt: now },
          select: { id: true },
        });
        queued++;
      } catch (error) {
        if (!isUniqueConstraintViolation(error)) throw error;
      }
    }
  }
  return queued;
}

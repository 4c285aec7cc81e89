import { randomUUID } from "node:crypto";
import { reminderEvent } from "@/server/notifications/reminder-event";
import type { Db } from "@/server/persistence/db";
import { DECIDING_ROLES } from "../escalations/decision-kinds";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { escalationPolicyOf } from "@/server/review-policy/escalation-policy";
import { emailRecipientsFinder, NOBODY } from "./email-recipients";

const BATCH = 50;
const HOUR_MS = 3_600_000;

/**
 * Queues a reminder for each pending guard escalation whose deadline is `hours` or less away: to
 * whoever has claimed it, or else to the reviewers it is offered to (its group's members, or every
 * reviewer) who want email. One per escalation,
 * recipient and point, like every outbox row. An escalation that arrived already inside the
 * window gets no reminder (its first email says the deadline): its row is kept as not sent, so
 * the next pass does not look at it again. `now` is a parameter so tests move the clock.
 */
export async function queueReminders(db: Db, hoursBefore: readonly number[], now = new Date()): Promise<number> {
  const reviewers = await db.user.findMany({ where: { role: { in: [...DECIDING_ROLES] }, disabled: false, notifyByEmail: true }, select: { email: true }, orderBy: { email: "asc" } });
  if (reviewers.length === 0) return 0;
  const recipientsOf = emailRecipientsFinder(db);
  let queued = 0;
  for (const hours of hoursBefore) {
    const event = reminderEvent(hours);
    const escalations = await db.escalation.findMany({
      where: { status: "pending", kind: "guard", expiresAt: { gt: now, lte: new Date(now.getTime() + hours * HOUR_MS) }, notifications: { none: { channel: "email", event } } },
      orderBy: { expiresAt: "asc" },
      take: BATCH,
      select: { id: true, createdAt: true, expiresAt: true, claimedBy: true, reviewGroup: true, policy: true },
    });
    for (const escalation of escalations) {
      const arrivedInWindow = escalation.createdAt.getTime() > escalation.expiresAt!.getTime() - hours * HOUR_MS;
      const claimer = escalation.claimedBy ? reviewers.filter((reviewer) => reviewer.email === escalation.claimedBy) : [];
      // Unclaimed: whoever it is offered to now (its group's members, or every reviewer).
      const offeredTo = (await recipientsOf(escalation.reviewGroup, escalationPolicyOf(escalation.policy))).map((email) => ({ email }));
      const recipients = arrivedInWindow ? reviewers.slice(0, 1) : claimer.length > 0 ? claimer : offeredTo;
      // Nobody to remind (the group gets no email): one row says so, so the next pass does not look again.
      const skipped = arrivedInWindow ? `the escalation arrived within ${hours} h of its deadline, which its first email gives` : recipients.length === 0 ? "nobody it is offered to gets email" : null;
      for (const { email } of recipients.length === 0 ? [{ email: NOBODY }] : recipients) {
        try {
          await db.notificationDelivery.create({
            data: {
              id: randomUUID(), escalationId: escalation.id, recipient: email, channel: "email", event, nextAttemptAt: now, createdAt: now,
              ...(skipped ? { failedAt: now, lastError: `not sent: ${skipped}` } : {}),
            },
            select: { id: true },
          });
          if (!skipped) queued++;
        } catch (error) {
          if (!isUniqueConstraintViolation(error)) throw error;
        }
      }
    }
  }
  return queued;
}

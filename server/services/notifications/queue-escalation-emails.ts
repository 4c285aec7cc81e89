import { randomUUID } from "node:crypto";
import { CREATED_EVENT } from "@/server/notifications/reminder-event";
import type { Db } from "@/server/persistence/db";
import { DECIDING_ROLES } from "../escalations/decision-kinds";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { emailRecipientsFinder, NOBODY } from "./email-recipients";

export { NOBODY };
import { escalationsReadyToNotify } from "./escalations-ready-to-notify";

/** How many escalations one pass looks at; the next pass takes the rest. */
const BATCH = 50;

/**
 * Queues an email to every reviewer the escalation is offered to (its group's members, or every
 * reviewer) who wants email, for each escalation ready to announce (escalationsReadyToNotify) that
 * has none queued yet. The escalation row (written in the run's transaction) is the event's
 * durable record: a crash before this step loses nothing, the next pass finds it. The unique
 * (escalation, recipient, channel, event) makes concurrent passes queue each email once.
 */
export async function queueEscalationEmails(db: Db, now = new Date()): Promise<number> {
  const anyone = await db.user.count({ where: { role: { in: [...DECIDING_ROLES] }, disabled: false, notifyByEmail: true } });
  // Nobody to tell: every pending escalation stays unqueued, for the first reviewer to come.
  if (anyone === 0) return 0;
  const escalations = await escalationsReadyToNotify(db, { channel: "email", event: CREATED_EVENT, now, take: BATCH });
  const recipientsOf = emailRecipientsFinder(db);
  let queued = 0;
  for (const escalation of escalations) {
    const recipients = await recipientsOf(escalation.reviewGroup, escalation.policy);
    if (recipients.length === 0) {
      const why = escalation.policy.channels.includes("email") ? `nobody in ${escalation.reviewGroup ? `group ${escalation.reviewGroup}` : "the reviewers"} gets email` : "its routing policy sends no email";
      await create(db, { id: randomUUID(), escalationId: escalation.id, recipient: NOBODY, channel: "email", event: CREATED_EVENT, nextAttemptAt: now, createdAt: now, failedAt: now, lastError: `not sent: ${why}` });
      continue;
    }
    for (const email of recipients) {
      if (await create(db, { id: randomUUID(), escalationId: escalation.id, recipient: email, channel: "email", event: CREATED_EVENT, nextAttemptAt: now, createdAt: now })) queued++;
    }
  }
  return queued;
}

async function create(db: Db, data: Parameters<Db["notificationDelivery"]["create"]>[0]["data"]): Promise<boolean> {
  try {
    await db.notificationDelivery.create({ data, select: { id: true } });
    return true;
  } catch (error) {
    if (!isUniqueConstraintViolation(error)) throw error;
    return false;
  }
}

import { randomUUID } from "node:crypto";
import { handOffDeliveries, groupRecipient } from "@/server/notifications/handoff-recipients";
import { handoffEvent } from "@/server/notifications/reminder-event";
import type { Db } from "@/server/persistence/db";
import { escalationPolicyOf } from "@/server/review-policy/escalation-policy";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { reviewersOf } from "../reviewer-groups/reviewers-of";
import { untoldHandOffs } from "./untold-hand-offs";

/** How many hand-offs one pass looks at; the next pass takes the rest. */
const BATCH = 50;

/**
 * Queues a "handoff:<group>" email for each pending guard escalation the watchdog handed to a
 * group (a backup, or at the deadline) that has none queued for that group yet: to the group's
 * reviewers who want email (server/notifications/handoff-recipients.ts). Slack's own queue
 * (services/slack) tells the group's Slack channel and members, whether or not SMTP is set up,
 * so each channel's queue looks only at its own rows. The escalation row,
 * written in the hand-off's transaction, is the durable record; the outbox's unique (escalation,
 * recipient, channel, event) makes concurrent passes queue each message once. A group nobody in
 * it can be told about gets one row saying so, not sent, so the next pass does not look again.
 */
export async function queueHandoffNotifications(db: Db, now = new Date()): Promise<number> {
  const handedOff = await untoldHandOffs(db, "email", BATCH);
  let queued = 0;
  for (const { id, reviewGroup } of handedOff) {
    const escalation = await db.escalation.findUnique({ where: { id }, select: { policy: true } });
    if (!escalation) continue;
    const group = await db.reviewerGroup.findUnique({ where: { name: reviewGroup }, select: { name: true, notifyEmail: true, notifySlack: true, slackWebhookUrl: true, slackChannel: true } });
    const reviewers = await reviewersOf(db, reviewGroup);
    const deliveries = handOffDeliveries(
      group ? { name: group.name, notifyEmail: group.notifyEmail, notifySlack: group.notifySlack, hasSlackTarget: Boolean(group.slackWebhookUrl || group.slackChannel) } : null,
      group ? reviewers : [],
      escalationPolicyOf(escalation.policy).channels,
    ).filter((delivery) => delivery.channel === "email");
    const event = handoffEvent(reviewGroup);
    const rows =
      deliveries.length > 0
        ? deliveries.map((delivery) => ({ ...delivery, failed: null }))
        : [{ recipient: groupRecipient(reviewGroup), channel: "email", failed: group ? `not sent by email: nobody in group ${reviewGroup} wants email, or the group's email or the policy's is off` : `not sent: group ${reviewGroup} does not exist` }];
    for (const row of rows) {
      try {
        await db.notificationDelivery.create({
          data: { id: randomUUID(), escalationId: id, recipient: row.recipient, channel: row.channel, event, nextAttemptAt: now, createdAt: now, ...(row.failed ? { failedAt: now, lastError: row.failed } : {}) },
          select: { id: true },
        });
        if (!row.failed) queued++;
      } catch (error) {
        if (!isUniqueConstraintViolation(error)) throw error;
      }
    }
  }
  return queued;
}

import { randomUUID } from "node:crypto";
import { escalationPolicyOf } from "@/server/review-policy/escalation-policy";
import { CREATED_EVENT, handoffEvent, reminderEvent } from "@/server/notifications/reminder-event";
import { NO_SLACK_RECIPIENT } from "@/server/notifications/slack-recipient";
import type { Db } from "@/server/persistence/db";
import { escalationsReadyToNotify, readyToNotifyWhere } from "../notifications/escalations-ready-to-notify";
import { untoldHandOffs } from "../notifications/untold-hand-offs";
import { isUniqueConstraintViolation } from "../prisma-errors";
import type { SlackDeliveryConfig } from "./slack-config";
import { slackRecipientsOf } from "./slack-recipients-of";

/** How many escalations one pass looks at per kind of event; the next pass takes the rest. */
const BATCH = 50;
const HOUR_MS = 3_600_000;

type QueueConfig = Pick<SlackDeliveryConfig, "hasApp" | "defaultWebhookUrl" | "reminderHours">;

/**
 * Queues the Slack messages due: for each new escalation ("created"), each hand-off to another
 * group ("handoff:<group>"), and each reminder point before a deadline ("reminder:<h>h"), one row
 * per recipient (slackRecipientsOf) in the notification outbox. The unique (escalation, recipient,
 * channel, event) makes concurrent passes queue each message once. An escalation whose policy
 * leaves Slack out, or that reaches nobody on Slack, gets one row that is never sent, so the next
 * pass does not look at it again. `now` is a parameter so tests move the clock.
 */
export async function queueSlackNotifications(db: Db, config: QueueConfig, now = new Date()): Promise<number> {
  let queued = 0;
  // Announced once routed (or unrouted past the grace): the rule every channel shares.
  const created = await escalationsReadyToNotify(db, { channel: "slack", event: CREATED_EVENT, now, take: BATCH });
  for (const escalation of created) queued += await queueFor(db, config, escalation, CREATED_EVENT, now);

  // Only hand-offs with no Slack row for their group yet, so those already told never fill the batch.
  const untold = await untoldHandOffs(db, "slack", BATCH);
  const handedOff = await db.escalation.findMany({ where: { id: { in: untold.map((row) => row.id) } }, orderBy: { handedOffAt: "asc" }, select: { id: true, policy: true, reviewGroup: true } });
  for (const escalation of handedOff) {
    if (escalation.reviewGroup) queued += await queueFor(db, config, escalation, handoffEvent(escalation.reviewGroup), now);
  }

  for (const hours of config.reminderHours ?? []) {
    const event = reminderEvent(hours);
    const nearing = await db.escalation.findMany({
      where: { ...readyToNotifyWhere(now), kind: "guard", expiresAt: { gt: now, lte: new Date(now.getTime() + hours * HOUR_MS) }, notifications: { none: { channel: "slack", event } } },
      orderBy: { expiresAt: "asc" },
      take: BATCH,
      select: { id: true, policy: true, reviewGroup: true, createdAt: true, expiresAt: true, claimedBy: true },
    });
    for (const escalation of nearing) {
      // Arrived already inside the window: its first message gives the deadline.
      if (escalation.createdAt.getTime() > escalation.expiresAt!.getTime() - hours * HOUR_MS) {
        await keepUnsent(db, escalation.id, event, `not sent: the escalation arrived within ${hours} h of its deadline, which its first message gives`, now);
        continue;
      }
      queued += await queueFor(db, config, escalation, event, now, escalation.claimedBy);
    }
  }
  return queued;
}

async function queueFor(db: Db, config: QueueConfig, escalation: { id: string; policy: unknown; reviewGroup: string | null }, event: string, now: Date, claimedBy?: string | null): Promise<number> {
  if (!escalationPolicyOf(escalation.policy).channels.includes("slack")) {
    await keepUnsent(db, escalation.id, event, "not sent: the escalation's routing policy leaves Slack out", now);
    return 0;
  }
  let recipients = await slackRecipientsOf(db, escalation.reviewGroup, config);
  // A reminder of a claimed escalation goes to whoever claimed it, when they are on Slack.
  if (claimedBy && recipients.includes(claimedBy)) recipients = [claimedBy];
  if (recipients.length === 0) {
    await keepUnsent(db, escalation.id, event, "not sent: nobody who may decide it is reachable on Slack", now);
    return 0;
  }
  let queued = 0;
  for (const recipient of recipients) if (await insert(db, { escalationId: escalation.id, recipient, event, now })) queued++;
  return queued;
}

async function keepUnsent(db: Db, escalationId: string, event: string, reason: string, now: Date): Promise<void> {
  await insert(db, { escalationId, recipient: NO_SLACK_RECIPIENT, event, now, failed: reason });
}

async function insert(db: Db, row: { escalationId: string; recipient: string; event: string; now: Date; failed?: string }): Promise<boolean> {
  try {
    await db.notificationDelivery.create({
      data: {
        id: randomUUID(), escalationId: row.escalationId, recipient: row.recipient, channel: "slack", event: row.event, nextAttemptAt: row.now, createdAt: row.now,
        ...(row.failed ? { failedAt: row.now, lastError: row.failed } : {}),
      },
      select: { id: true },
    });
    return true;
  } catch (error) {
    if (!isUniqueConstraintViolation(error)) throw error;
    return false;
  }
}

import { linesAround } from "@/server/notifications/escalation-email";
import { handoffGroupOf, reminderHoursOf } from "@/server/notifications/reminder-event";
import { slackEscalationMessage, type SlackButtons, type SlackMessage } from "@/server/notifications/slack-message";
import { parseSlackRecipient } from "@/server/notifications/slack-recipient";
import type { Db } from "@/server/persistence/db";
import { canDecide } from "../escalations/decision-kinds";
import { offendingLine } from "../escalations/offending-line";
import { failureOf, recordDeliveryOutcome } from "../outbox/record-delivery-outcome";
import { outboxBackoffMs } from "../outbox/retry-backoff";
import { usableWebhookUrl, type SlackDeliveryConfig } from "./slack-config";

/** A message that has not gone out in this long is claimed again by the next pass. */
const SEND_TIMEOUT_MS = 60_000;

type Destination = { readonly webhookUrl: string } | { readonly channel: string } | { readonly unsent: string };

/**
 * Sends every due Slack message once. A row is claimed by compare-and-swap on its attempt count,
 * so two dispatchers never send it at once; a refusal or an outage is retried with backoff, up to
 * `maxAttempts`. An escalation decided before its message went out is not sent at all; nor is a
 * message whose destination was turned off since it was queued.
 */
export async function deliverDueSlackNotifications(db: Db, config: SlackDeliveryConfig, now = new Date()): Promise<{ delivered: number; retried: number; failed: number; skipped: number }> {
  const maxAttempts = config.maxAttempts ?? 6;
  const due = await db.notificationDelivery.findMany({ where: { channel: "slack", deliveredAt: null, failedAt: null, nextAttemptAt: { lte: now } }, orderBy: { nextAttemptAt: "asc" }, take: 50 });
  const tally = { delivered: 0, retried: 0, failed: 0, skipped: 0 };
  for (const delivery of due) {
    const attempts = delivery.attempts + 1;
    const claimed = await db.notificationDelivery.updateMany({
      where: { id: delivery.id, attempts: delivery.attempts, deliveredAt: null, failedAt: null },
      data: { attempts, nextAttemptAt: new Date(now.getTime() + SEND_TIMEOUT_MS + outboxBackoffMs(attempts, config.baseDelayMs)) },
    });
    if (claimed.count !== 1) continue;
    const giveUp = async (reason: string) => {
      await db.notificationDelivery.update({ where: { id: delivery.id }, data: { failedAt: now, lastError: reason } });
      tally.skipped++;
    };

    const escalation = await db.escalation.findUnique({
      where: { id: delivery.escalationId },
      select: {
        id: true, runId: true, status: true, stepName: true, guardId: true, feedback: true, expiresAt: true, reviewGroup: true,
        artifact: { select: { content: true, contentHash: true, fatal: true } },
        run: { select: { workflowVersion: { select: { workflow: { select: { name: true } } } } } },
      },
    });
    if (!escalation || escalation.status !== "pending" || !escalation.artifact) {
      await giveUp(`not sent: the escalation is ${!escalation ? "gone" : escalation.artifact ? escalation.status : "about no artifact"}`);
      continue;
    }
    const destination = await destinationOf(db, config, delivery.recipient);
    if ("unsent" in destination) {
      await giveUp(`not sent: ${destination.unsent}`);
      continue;
    }
    const artifact = escalation.artifact;
    const buttons: SlackButtons = "channel" in destination ? { kind: "interactive", target: { escalationId: escalation.id, contentHash: artifact.contentHash } } : { kind: "links" };
    const message: SlackMessage = slackEscalationMessage(
      {
        workflow: escalation.run.workflowVersion?.workflow.name ?? "(deleted workflow)",
        runId: escalation.runId,
        stepName: escalation.stepName,
        guardId: escalation.guardId,
        fatal: artifact.fatal,
        feedback: escalation.feedback,
        offendingLines: linesAround(artifact.content, offendingLine(escalation.feedback, artifact.content)),
        expiresAt: escalation.expiresAt,
        reminderHours: reminderHoursOf(delivery.event) ?? undefined,
        handedOff: handoffGroupOf(delivery.event) !== null,
        group: escalation.reviewGroup,
        reviewUrl: `${config.baseUrl.replace(/\/+$/, "")}/escalations/${escalation.id}`,
      },
      buttons,
    );
    // A webhook URL is a secret: an error never repeats it (fetch's messages do not; ours do not).
    const failure = await failureOf(() => ("channel" in destination ? config.client.postMessage(destination.channel, message) : config.client.postToWebhook(destination.webhookUrl, message)));
    tally[await recordDeliveryOutcome(db.notificationDelivery, { id: delivery.id, attempts, maxAttempts, baseDelayMs: config.baseDelayMs, now }, failure)]++;
  }
  return tally;
}

/** Where a queued message goes now (settings may have changed since it was queued). */
async function destinationOf(db: Db, config: SlackDeliveryConfig, recipient: string): Promise<Destination> {
  const parsed = parseSlackRecipient(recipient);
  switch (parsed.kind) {
    case "nobody":
      return { unsent: "nobody is reachable on Slack" };
    case "all-reviewers":
      return config.defaultWebhookUrl ? { webhookUrl: config.defaultWebhookUrl } : { unsent: "no default Slack webhook is configured (DUALSTATE_SLACK_WEBHOOK_URL)" };
    case "reviewer": {
      if (!config.hasApp) return { unsent: "direct messages need a Slack app (DUALSTATE_SLACK_BOT_TOKEN)" };
      const user = await db.user.findUnique({ where: { email: parsed.email }, select: { disabled: true, role: true, notifyBySlack: true, slackUserId: true } });
      if (!user || user.disabled || !canDecide(user.role)) return { unsent: `${parsed.email} may no longer decide escalations` };
      if (!user.notifyBySlack || !user.slackUserId) return { unsent: `${parsed.email} turned Slack messages off` };
      return { channel: user.slackUserId };
    }
    case "group": {
      const group = await db.reviewerGroup.findUnique({ where: { name: parsed.group }, select: { notifySlack: true, slackWebhookUrl: true, slackChannel: true } });
      if (!group) return { unsent: `the group ${parsed.group} no longer exists` };
      if (!group.notifySlack) return { unsent: `the group ${parsed.group} turned Slack off` };
      const own = usableWebhookUrl(group.slackWebhookUrl);
      if (own) return { webhookUrl: own };
      if (group.slackChannel && config.hasApp) return { channel: group.slackChannel };
      if (config.defaultWebhookUrl) return { webhookUrl: config.defaultWebhookUrl };
      return { unsent: `the group ${parsed.group} has no Slack webhook or channel` };
    }
  }
}

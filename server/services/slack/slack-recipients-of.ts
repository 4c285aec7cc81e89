import { ALL_REVIEWERS_RECIPIENT, groupRecipient } from "@/server/notifications/slack-recipient";
import type { Db } from "@/server/persistence/db";
import { reviewersOf } from "../reviewer-groups/reviewers-of";
import { usableWebhookUrl, type SlackDeliveryConfig } from "./slack-config";

/**
 * Who gets a Slack message for an escalation offered to `group` (null: every reviewer):
 * - with a Slack app, each of its reviewers who turned Slack on and gave their Slack member id
 *   (a direct message);
 * - a group that turned Slack on, in its channel: its own webhook, else its channel id through the
 *   app, else the deployment's default webhook;
 * - an escalation offered to every reviewer, in the deployment's default webhook's channel.
 */
export async function slackRecipientsOf(db: Db, group: string | null, config: Pick<SlackDeliveryConfig, "hasApp" | "defaultWebhookUrl">): Promise<string[]> {
  const recipients: string[] = [];
  if (config.hasApp) {
    for (const reviewer of await reviewersOf(db, group)) {
      if (reviewer.notifyBySlack && reviewer.slackUserId) recipients.push(reviewer.email);
    }
  }
  if (group === null) {
    if (config.defaultWebhookUrl) recipients.push(ALL_REVIEWERS_RECIPIENT);
    return recipients;
  }
  const row = await db.reviewerGroup.findUnique({ where: { name: group }, select: { notifySlack: true, slackWebhookUrl: true, slackChannel: true } });
  if (row?.notifySlack && (usableWebhookUrl(row.slackWebhookUrl) || (row.slackChannel && config.hasApp) || config.defaultWebhookUrl)) recipients.push(groupRecipient(group));
  return recipients;
}

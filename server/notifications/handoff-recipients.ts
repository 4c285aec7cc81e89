import type { NotificationChannel } from "@/server/review-policy/escalation-policy";

export interface HandOffGroupChannels {
  readonly name: string;
  readonly notifyEmail: boolean;
  readonly notifySlack: boolean;
  /** The group has a Slack webhook or channel to post to. */
  readonly hasSlackTarget: boolean;
}

export interface HandOffReviewer {
  readonly email: string;
  readonly notifyByEmail: boolean;
  readonly notifyBySlack: boolean;
  readonly slackUserId: string | null;
}

export interface HandOffDelivery {
  /** A reviewer's email, or `group:<name>` for the group's Slack channel. */
  readonly recipient: string;
  readonly channel: NotificationChannel;
}

/** The recipient of a message to a group's own Slack channel. */
export const groupRecipient = (group: string) => `group:${group}`;

/**
 * Who is told that an escalation was handed to a group, on which channel: the channels the
 * escalation's policy allows, the group's (email to members, Slack to its channel) and each
 * member's own (email, Slack direct message). Pure, so the rules are tested without a database.
 */
export function handOffDeliveries(group: HandOffGroupChannels | null, reviewers: readonly HandOffReviewer[], channels: readonly NotificationChannel[]): HandOffDelivery[] {
  const deliveries: HandOffDelivery[] = [];
  if (channels.includes("email") && (group?.notifyEmail ?? true)) {
    for (const reviewer of reviewers) if (reviewer.notifyByEmail) deliveries.push({ recipient: reviewer.email, channel: "email" });
  }
  if (channels.includes("slack")) {
    for (const reviewer of reviewers) if (reviewer.notifyBySlack && reviewer.slackUserId) deliveries.push({ recipient: reviewer.email, channel: "slack" });
    if (group?.notifySlack && group.hasSlackTarget) deliveries.push({ recipient: groupRecipient(group.name), channel: "slack" });
  }
  return deliveries;
}

import type { Actor } from "@/server/api/trpc";
import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { invalidInput, notFound } from "../errors";
import { slackChannelProblem, webhookUrlProblem } from "./slack-target";

export interface GroupChannelsChange {
  readonly groupId: string;
  readonly notifyEmail?: boolean;
  readonly notifySlack?: boolean;
  /** A new webhook URL; null removes it; absent keeps the saved one (the page never has it to send back). */
  readonly slackWebhookUrl?: string | null;
  readonly slackChannel?: string | null;
}

/** How a group is told: email to its members, Slack to its channel (webhook or the app's channel id). */
export async function setGroupChannels(db: Db, change: GroupChannelsChange, by: Actor): Promise<void> {
  const webhook = change.slackWebhookUrl?.trim();
  if (webhook) {
    const problem = webhookUrlProblem(webhook);
    if (problem) throw invalidInput("slackWebhookUrl", problem);
  }
  const channel = change.slackChannel?.trim();
  if (channel) {
    const problem = slackChannelProblem(channel);
    if (problem) throw invalidInput("slackChannel", problem);
  }
  await db.$transaction(async (tx) => {
    const group = await tx.reviewerGroup.findUnique({ where: { id: change.groupId }, select: { id: true, name: true } });
    if (!group) throw notFound("Reviewer group", change.groupId);
    await tx.reviewerGroup.update({
      where: { id: group.id },
      data: {
        notifyEmail: change.notifyEmail,
        notifySlack: change.notifySlack,
        ...(change.slackWebhookUrl === undefined ? {} : { slackWebhookUrl: webhook || null }),
        ...(change.slackChannel === undefined ? {} : { slackChannel: channel || null }),
      },
    });
    // The audit log says what changed, never the webhook URL itself.
    await recordAuditEvent(tx, {
      actor: by,
      action: "reviewer_group.updated",
      target: `reviewer_group:${group.name}`,
      detail: {
        ...(change.notifyEmail !== undefined ? { notifyEmail: change.notifyEmail } : {}),
        ...(change.notifySlack !== undefined ? { notifySlack: change.notifySlack } : {}),
        ...(change.slackWebhookUrl !== undefined ? { slackWebhook: webhook ? "set" : "removed" } : {}),
        ...(change.slackChannel !== undefined ? { slackChannel: channel || null } : {}),
      },
    });
  });
}

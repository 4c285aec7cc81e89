import type { Actor } from "@/server/api/trpc";
import { parseSlackMemberId } from "@/server/notifications/slack-member-id";
import type { Db } from "@/server/persistence/db";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { conflict, invalidInput, notFound } from "../errors";

export interface SlackNotificationSettings {
  /** Direct messages for each new escalation the person may decide (needs a Slack app and their member id). */
  readonly enabled: boolean;
  /** Their Slack member id: direct messages go there, and a click on a Slack button is theirs. */
  readonly slackUserId: string | null;
}

/** The signed-in person's Slack settings. */
export async function slackNotificationsOf(db: Db, actor: Actor): Promise<SlackNotificationSettings> {
  const user = await db.user.findUnique({ where: { email: actor.email }, select: { notifyBySlack: true, slackUserId: true } });
  if (!user) throw notFound("User", actor.email);
  return { enabled: user.notifyBySlack, slackUserId: user.slackUserId };
}

/**
 * Sets the signed-in person's Slack member id (empty: none) and whether they get direct messages.
 * A member id belongs to one account: Slack clicks are attributed by it.
 */
export async function setSlackNotifications(db: Db, actor: Actor, input: { enabled: boolean; slackUserId: string }): Promise<SlackNotificationSettings> {
  let slackUserId: string | null = null;
  if (input.slackUserId.trim() !== "") {
    const parsed = parseSlackMemberId(input.slackUserId);
    if (!parsed.ok) throw invalidInput("slackUserId", parsed.problem);
    slackUserId = parsed.id;
  }
  if (input.enabled && !slackUserId) throw invalidInput("slackUserId", "is needed for Slack direct messages: enter your Slack member id first");
  try {
    const updated = await db.user.updateMany({ where: { email: actor.email }, data: { notifyBySlack: input.enabled, slackUserId } });
    if (updated.count !== 1) throw notFound("User", actor.email);
  } catch (error) {
    if (isUniqueConstraintViolation(error)) throw conflict(`slackUserId: ${slackUserId} is already linked to another Dualstate account; ask an admin if it is yours.`);
    throw error;
  }
  return { enabled: input.enabled, slackUserId };
}

import type { Actor } from "@/server/api/trpc";
import { parseSlackMemberId } from "@/server/notifications/slack-member-id";
import type { Db } from "@/server/persistence/db";
import { invalidInput, notFound } from "../errors";

export interface SlackNotificationSettings {
  /** Direct messages for each new escalation the person may decide (needs a Slack app and a verified member id). */
  readonly enabled: boolean;
  /** Their verified Slack member id: direct messages go there, and a click on a Slack button is theirs. */
  readonly slackUserId: string | null;
  /** A member id they entered and have not yet proved is theirs: it does nothing until they do. */
  readonly pendingSlackUserId: string | null;
  /** Until when the last code sent to the pending id works (null: none sent, used up, or expired). */
  readonly codeExpiresAt: Date | null;
  /** Whether a code can be sent at all: that needs the Slack app (DUALSTATE_SLACK_BOT_TOKEN). */
  readonly verificationAvailable: boolean;
}

/** The signed-in person's Slack settings. */
export async function slackNotificationsOf(db: Db, actor: Actor, options: { verificationAvailable: boolean }, now = new Date()): Promise<SlackNotificationSettings> {
  const user = await db.user.findUnique({
    where: { email: actor.email },
    select: { notifyBySlack: true, slackUserId: true, slackVerification: { select: { slackUserId: true, codeHash: true, codeExpiresAt: true } } },
  });
  if (!user) throw notFound("User", actor.email);
  const pending = user.slackVerification;
  return {
    enabled: user.notifyBySlack,
    slackUserId: user.slackUserId,
    pendingSlackUserId: pending?.slackUserId ?? null,
    codeExpiresAt: pending?.codeHash && pending.codeExpiresAt && pending.codeExpiresAt > now ? pending.codeExpiresAt : null,
    verificationAvailable: options.verificationAvailable,
  };
}

/**
 * Sets the signed-in person's Slack member id (empty: none) and whether they get direct messages.
 * A new id is only a claim until its owner enters the code Dualstate sends to it
 * (confirm-slack-verification-code.ts): several accounts may claim one id, so a claim never blocks
 * the real owner, and an account keeps its verified id until the new one is proved. A claim keeps
 * the account's code-sending counters, so changing the id does not reset the send limit.
 */
export async function setSlackNotifications(db: Db, actor: Actor, input: { enabled: boolean; slackUserId: string }, options: { verificationAvailable: boolean }): Promise<SlackNotificationSettings> {
  let slackUserId: string | null = null;
  if (input.slackUserId.trim() !== "") {
    const parsed = parseSlackMemberId(input.slackUserId);
    if (!parsed.ok) throw invalidInput("slackUserId", parsed.problem);
    slackUserId = parsed.id;
  }
  if (input.enabled && !slackUserId) throw invalidInput("slackUserId", "is needed for Slack direct messages: enter your Slack member id first");
  const user = await db.user.findUnique({ where: { email: actor.email }, select: { id: true, slackUserId: true, slackVerification: { select: { slackUserId: true } } } });
  if (!user) throw notFound("User", actor.email);

  await db.$transaction(async (tx) => {
    if (slackUserId === null || slackUserId === user.slackUserId) {
      // No id, or the verified one again: nothing waits for verification.
      await tx.slackVerification.deleteMany({ where: { userId: user.id } });
      await tx.user.update({ where: { id: user.id }, data: { notifyBySlack: input.enabled, slackUserId } });
      return;
    }
    await tx.user.update({ where: { id: user.id }, data: { notifyBySlack: input.enabled } });
    // The same id again keeps its code; another one replaces the claim, and any code sent for the old id.
    if (user.slackVerification?.slackUserId === slackUserId) return;
    await tx.slackVerification.upsert({
      where: { userId: user.id },
      create: { userId: user.id, slackUserId },
      update: { slackUserId, codeHash: null, codeExpiresAt: null, attempts: 0 },
    });
  });
  return slackNotificationsOf(db, actor, options);
}

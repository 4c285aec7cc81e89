import type { Actor } from "@/server/api/trpc";
import { hashSlackVerificationCode, newSlackVerificationCode } from "@/server/notifications/slack-verification-code";
import { slackVerificationMessage } from "@/server/notifications/slack-verification-message";
import type { Db } from "@/server/persistence/db";
import type { SlackClient } from "../slack/slack-client";
import { conflict, invalidInput, notConfigured, notFound, tooManyRequests } from "../errors";
import { SLACK_VERIFICATION_LIMITS as LIMITS } from "./slack-verification-limits";

/** What sending a code needs: the Slack app's client (null without a bot token) and the secret codes are hashed under. */
export interface SlackVerificationSender {
  readonly client: Pick<SlackClient, "postMessage"> | null;
  readonly authSecret: string;
  readonly baseUrl?: string;
}

/**
 * Sends a new code to the member id the signed-in person entered and has not yet proved, by direct
 * message from the Slack app. Bounded per account: one a minute and five an hour, whatever the id
 * (the counters are taken by compare-and-swap, so two requests at once send one code). A new code
 * replaces the last one and its wrong tries.
 */
export async function sendSlackVerificationCode(db: Db, actor: Actor, sender: SlackVerificationSender, now = new Date()): Promise<{ sentTo: string; expiresAt: Date }> {
  if (!sender.client) throw notConfigured("Verifying a Slack member id needs the Dualstate Slack app (DUALSTATE_SLACK_BOT_TOKEN), which is not configured: nothing was sent. Ask an admin.");
  const user = await db.user.findUnique({ where: { email: actor.email }, select: { id: true, email: true, slackUserId: true, slackVerification: true } });
  if (!user) throw notFound("User", actor.email);
  const claim = user.slackVerification;
  if (!claim) {
    throw invalidInput("slackUserId", user.slackUserId ? `${user.slackUserId} is already verified; enter another member id first to verify it` : "enter your Slack member id and save it first; the code is sent to it");
  }

  const sinceLast = claim.lastSentAt ? now.getTime() - claim.lastSentAt.getTime() : Infinity;
  if (sinceLast < LIMITS.minResendMs) throw tooManyRequests(`A code was sent less than a minute ago; wait ${Math.ceil((LIMITS.minResendMs - sinceLast) / 1000)} s before asking for another.`);
  const windowOpen = claim.windowStartedAt !== null && now.getTime() - claim.windowStartedAt.getTime() < LIMITS.sendWindowMs;
  if (windowOpen && claim.sendsInWindow >= LIMITS.maxSendsPerWindow) {
    const reopens = new Date(claim.windowStartedAt!.getTime() + LIMITS.sendWindowMs).toISOString().replace("T", " ").slice(0, 16);
    throw tooManyRequests(`${LIMITS.maxSendsPerWindow} codes were sent in the last hour; ask again after ${reopens} UTC.`);
  }

  const code = newSlackVerificationCode();
  const codeHash = hashSlackVerificationCode(sender.authSecret, { userId: user.id, slackUserId: claim.slackUserId }, code);
  const expiresAt = new Date(now.getTime() + LIMITS.codeLifetimeMs);
  const taken = await db.slackVerification.updateMany({
    where: { userId: user.id, slackUserId: claim.slackUserId, lastSentAt: claim.lastSentAt, sendsInWindow: claim.sendsInWindow },
    data: { codeHash, codeExpiresAt: expiresAt, attempts: 0, lastSentAt: now, sendsInWindow: windowOpen ? claim.sendsInWindow + 1 : 1, windowStartedAt: windowOpen ? claim.windowStartedAt : now },
  });
  if (taken.count !== 1) throw conflict("Your Slack member id or its code changed while this code was being sent (another tab?); reload and try again.");

  try {
    await sender.client.postMessage(claim.slackUserId, slackVerificationMessage({ code, accountEmail: user.email, expiresAt, baseUrl: sender.baseUrl }));
  } catch (error) {
    // Not delivered: the code must not stay usable. The send still counts towards the limit.
    await db.slackVerification.updateMany({ where: { userId: user.id, codeHash }, data: { codeHash: null, codeExpiresAt: null } });
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidInput("slackUserId", `Slack did not deliver the code to ${claim.slackUserId} (${reason}); check the member id (in Slack: your profile → ⋮ → Copy member ID)`);
  }
  return { sentTo: claim.slackUserId, expiresAt };
}

import type { Actor } from "@/server/api/trpc";
import { hashSlackVerificationCode, parseSlackVerificationCode, slackVerificationHashesMatch } from "@/server/notifications/slack-verification-code";
import type { Db } from "@/server/persistence/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { conflict, invalidInput, notFound } from "../errors";
import { isUniqueConstraintViolation } from "../prisma-errors";
import { SLACK_VERIFICATION_LIMITS as LIMITS } from "./slack-verification-limits";

/**
 * Checks the code the signed-in person typed against the one sent to the member id they entered.
 * Each try is counted (by compare-and-swap, before the comparison) and the code is used up after
 * `maxWrongAttempts` wrong ones; it expires after 15 minutes and works once. The right code makes
 * the member id this account's verified one: proving control of the Slack account outranks any
 * claim, so it is taken from any other account that claimed it (unverified) or held it (that
 * person's Slack account is this one, proved again), and the change is audited.
 */
export async function confirmSlackVerificationCode(db: Db, actor: Actor, input: { authSecret: string; code: string }, now = new Date()): Promise<{ slackUserId: string }> {
  const parsed = parseSlackVerificationCode(input.code);
  if (!parsed.ok) throw invalidInput("code", parsed.problem);
  const user = await db.user.findUnique({ where: { email: actor.email }, select: { id: true, email: true, slackVerification: true } });
  if (!user) throw notFound("User", actor.email);
  const claim = user.slackVerification;
  if (!claim) throw invalidInput("code", "no Slack member id on your account waits for verification; enter yours and save it first");
  if (!claim.codeHash || !claim.codeExpiresAt) throw invalidInput("code", `no code is waiting for ${claim.slackUserId} (none was sent, or the last one was used up); send a new code`);
  if (claim.codeExpiresAt <= now) {
    await db.slackVerification.updateMany({ where: { userId: user.id, codeHash: claim.codeHash }, data: { codeHash: null, codeExpiresAt: null } });
    throw invalidInput("code", `the code sent to ${claim.slackUserId} expired at ${claim.codeExpiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC; send a new code`);
  }

  // Counted before it is compared: parallel guesses cannot exceed the bound.
  const attempts = claim.attempts + 1;
  const counted = await db.slackVerification.updateMany({ where: { userId: user.id, codeHash: claim.codeHash, attempts: claim.attempts }, data: { attempts } });
  if (counted.count !== 1) throw conflict("code: another try at this code was being checked at the same time; try again.");

  const binding = { userId: user.id, slackUserId: claim.slackUserId };
  if (!slackVerificationHashesMatch(claim.codeHash, hashSlackVerificationCode(input.authSecret, binding, parsed.code))) {
    const left = LIMITS.maxWrongAttempts - attempts;
    if (left > 0) throw invalidInput("code", `the code is wrong; ${left} ${left === 1 ? "try" : "tries"} left before it is used up`);
    await db.slackVerification.updateMany({ where: { userId: user.id, codeHash: claim.codeHash }, data: { codeHash: null, codeExpiresAt: null } });
    throw invalidInput("code", `the code is wrong, and that was the last try: it is used up; send a new code`);
  }

  try {
    await db.$transaction(async (tx) => {
      // Single use: only the request that removes the claim with this code goes on.
      const used = await tx.slackVerification.deleteMany({ where: { userId: user.id, codeHash: claim.codeHash } });
      if (used.count !== 1) throw conflict("code: this code was already used or replaced; send a new code if your member id is not verified yet.");
      const holders = await tx.user.findMany({ where: { slackUserId: claim.slackUserId, id: { not: user.id } }, select: { id: true, email: true } });
      const claimants = await tx.slackVerification.findMany({ where: { slackUserId: claim.slackUserId }, select: { user: { select: { email: true } } } });
      await tx.user.updateMany({ where: { id: { in: holders.map((holder) => holder.id) } }, data: { slackUserId: null } });
      await tx.slackVerification.deleteMany({ where: { slackUserId: claim.slackUserId } });
      await tx.user.update({ where: { id: user.id }, data: { slackUserId: claim.slackUserId } });
      await recordAuditEvent(tx, {
        actor: { id: user.id, email: user.email },
        action: "user.slack_verified",
        target: `user:${user.email}`,
        detail: { slackUserId: claim.slackUserId, takenFrom: holders.map((holder) => holder.email), claimsDropped: claimants.map((claimant) => claimant.user.email) },
      });
    });
  } catch (error) {
    if (isUniqueConstraintViolation(error)) throw conflict(`code: ${claim.slackUserId} was being verified by another account at the same moment; try again.`);
    throw error;
  }
  return { slackUserId: claim.slackUserId };
}

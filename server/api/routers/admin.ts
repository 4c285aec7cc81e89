import { listAuditEvents } from "@/server/services/audit/list-audit-events";
import { createApiToken, listApiTokens, revokeApiToken } from "@/server/services/api-tokens/api-tokens";
import { createUser } from "@/server/services/users/create-user";
import { listUsers, updateUser } from "@/server/services/users/manage-users";
import { emailNotificationsOf, setEmailNotifications } from "@/server/services/users/email-notifications";
import { getEnv } from "@/server/env";
import { slackVerificationAvailable, slackVerificationFromEnv } from "@/server/services/slack/slack-verification-from-env";
import { confirmSlackVerificationCode } from "@/server/services/users/confirm-slack-verification-code";
import { sendSlackVerificationCode } from "@/server/services/users/send-slack-verification-code";
import { setSlackNotifications, slackNotificationsOf } from "@/server/services/users/slack-notifications";
import { changeOwnPassword, resetUserPassword } from "@/server/services/users/passwords";
import { changePasswordInput, createTokenInput, emailNotificationsInput, slackNotificationsInput, slackVerificationCodeInput, createUserInput, listAuditInput, resetPasswordInput, revokeTokenInput, updateUserInput } from "../schemas/admin";
import { adminProcedure, createTRPCRouter, publicProcedure, viewerProcedure } from "../trpc";

/** Users, personal API tokens and the audit log: admins only. */
export const adminRouter = createTRPCRouter({
  users: adminProcedure.query(({ ctx }) => listUsers(ctx.db)),
  createUser: adminProcedure.input(createUserInput).mutation(({ ctx, input }) => createUser(ctx.db, input, ctx.actor)),
  updateUser: adminProcedure.input(updateUserInput).mutation(({ ctx, input }) => updateUser(ctx.db, input, ctx.actor)),
  /** Sets the typed password or generates one (returned once); the user's sessions end. */
  resetPassword: adminProcedure.input(resetPasswordInput).mutation(({ ctx, input }) => resetUserPassword(ctx.db, input, ctx.actor)),
  tokens: adminProcedure.query(({ ctx }) => listApiTokens(ctx.db)),
  createToken: adminProcedure.input(createTokenInput).mutation(({ ctx, input }) => createApiToken(ctx.db, input, ctx.actor)),
  revokeToken: adminProcedure.input(revokeTokenInput).mutation(({ ctx, input }) => revokeApiToken(ctx.db, input.tokenId, ctx.actor)),
  audit: adminProcedure.input(listAuditInput).query(({ ctx, input }) => listAuditEvents(ctx.db, input)),
});

/** Who is asking: the one procedure anyone may call (the answer is null when signed out). */
export const sessionRouter = createTRPCRouter({
  me: publicProcedure.query(({ ctx }) => ctx.actor),
  /** Anyone signed in changes their own password; their other sessions end. */
  changePassword: viewerProcedure.input(changePasswordInput).mutation(({ ctx, input }) => changeOwnPassword(ctx.db, ctx.actor, input, ctx.sessionId)),
  /** Anyone signed in reads and sets whether they get escalation emails. */
  emailNotifications: viewerProcedure.query(({ ctx }) => emailNotificationsOf(ctx.db, ctx.actor)),
  setEmailNotifications: viewerProcedure.input(emailNotificationsInput).mutation(({ ctx, input }) => setEmailNotifications(ctx.db, ctx.actor, input.enabled)),
  /** ... and their Slack member id and whether they get Slack direct messages. */
  slackNotifications: viewerProcedure.query(({ ctx }) => slackNotificationsOf(ctx.db, ctx.actor, { verificationAvailable: slackVerificationAvailable(getEnv()) })),
  setSlackNotifications: viewerProcedure.input(slackNotificationsInput).mutation(({ ctx, input }) => setSlackNotifications(ctx.db, ctx.actor, input, { verificationAvailable: slackVerificationAvailable(getEnv()) })),
  /** A member id counts only once proved: a code goes to it by Slack direct message, and is typed back here. */
  sendSlackVerificationCode: viewerProcedure.mutation(async ({ ctx }) => sendSlackVerificationCode(ctx.db, ctx.actor, await slackVerificationFromEnv(ctx.db, getEnv()))),
  confirmSlackVerificationCode: viewerProcedure
    .input(slackVerificationCodeInput)
    .mutation(async ({ ctx, input }) => confirmSlackVerificationCode(ctx.db, ctx.actor, { authSecret: (await slackVerificationFromEnv(ctx.db, getEnv())).authSecret, code: input.code })),
});

import { authSecret } from "@/server/auth/auth-secret";
import type { Env } from "@/server/env";
import type { Db } from "@/server/persistence/db";
import type { SlackVerificationSender } from "../users/send-slack-verification-code";
import { createSlackClient } from "./slack-client";

/** Whether a Slack member id can be verified here: a code is sent by the Slack app's bot. */
export function slackVerificationAvailable(env: Env): boolean {
  return Boolean(env.DUALSTATE_SLACK_BOT_TOKEN);
}

/** What sending and checking verification codes needs, from the environment (no client without a bot token). */
export async function slackVerificationFromEnv(db: Db, env: Env): Promise<SlackVerificationSender> {
  return {
    client: slackVerificationAvailable(env) ? createSlackClient({ apiUrl: env.DUALSTATE_SLACK_API_URL, botToken: env.DUALSTATE_SLACK_BOT_TOKEN }) : null,
    authSecret: await authSecret(db, env.DUALSTATE_AUTH_SECRET),
    ...(env.DUALSTATE_BASE_URL ? { baseUrl: env.DUALSTATE_BASE_URL } : {}),
  };
}

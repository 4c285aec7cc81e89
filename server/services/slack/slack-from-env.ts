import type { Env } from "@/server/env";
import { createDb } from "@/server/persistence/db";
import type { PollLoop } from "../outbox/poll-loop";
import { createSlackClient } from "./slack-client";
import { startSlackDispatcher } from "./slack-dispatcher";

/** Whether the environment configures Slack notifications (a default webhook or a Slack app). */
export function slackConfigured(env: Env): boolean {
  return Boolean((env.DUALSTATE_SLACK_WEBHOOK_URL || env.DUALSTATE_SLACK_BOT_TOKEN) && env.DUALSTATE_BASE_URL);
}

/**
 * The Slack dispatcher for the environment, or undefined when Slack is not configured. Group
 * webhooks and channels (Admin → Groups) are read at each send; without a default webhook or a bot
 * token nothing is started, so a group webhook alone needs DUALSTATE_SLACK_WEBHOOK_URL or a bot token
 * to be set too (docs/notifications.md).
 */
export function startSlackFromEnv(env: Env, log: (line: string) => void): PollLoop | undefined {
  if (!slackConfigured(env)) return undefined;
  const db = createDb(env.DATABASE_URL);
  const client = createSlackClient({ apiUrl: env.DUALSTATE_SLACK_API_URL, botToken: env.DUALSTATE_SLACK_BOT_TOKEN });
  const loop = startSlackDispatcher(db, { client, hasApp: Boolean(env.DUALSTATE_SLACK_BOT_TOKEN), defaultWebhookUrl: env.DUALSTATE_SLACK_WEBHOOK_URL, baseUrl: env.DUALSTATE_BASE_URL!, reminderHours: env.DUALSTATE_REMINDER_HOURS }, { log });
  return {
    async stop() {
      await loop.stop();
      await db.$disconnect();
    },
  };
}

/** The start-up line: what is configured, never a secret (a webhook URL is one). */
export function describeSlackSetup(env: Env): string {
  const parts = [env.DUALSTATE_SLACK_BOT_TOKEN ? `a Slack app (${env.DUALSTATE_SLACK_API_URL})` : null, env.DUALSTATE_SLACK_WEBHOOK_URL ? "a default incoming webhook" : null].filter(Boolean);
  return `Slack escalation messages by ${parts.join(" and ")}`;
}

import { authSecret } from "@/server/auth/auth-secret";
import type { Env } from "@/server/env";
import { SlackReplayGuard } from "@/server/notifications/slack-signature";
import type { Db } from "@/server/persistence/db";
import { createSlackClient } from "./slack-client";
import type { SlackInteractionConfig } from "./handle-slack-interaction";

// One replay guard per process (on globalThis, shared by Next.js's bundles).
const globalForSlack = globalThis as unknown as { dualstateSlackReplayGuard?: SlackReplayGuard };

/** Slack's own hosts answer clicks; a test's Slack-shaped server shares DUALSTATE_SLACK_API_URL's origin. */
export function responseUrlAllowedFor(apiUrl: string): (url: URL) => boolean {
  const apiOrigin = new URL(apiUrl).origin;
  return (url) => (url.protocol === "https:" && (url.hostname === "hooks.slack.com" || url.hostname.endsWith(".slack.com"))) || url.origin === apiOrigin;
}

/** The interaction handler's configuration, or null when no Slack app is configured. */
export async function slackInteractionConfig(db: Db, env: Env): Promise<SlackInteractionConfig | null> {
  if (!env.DUALSTATE_SLACK_SIGNING_SECRET || !env.DUALSTATE_BASE_URL) return null;
  globalForSlack.dualstateSlackReplayGuard ??= new SlackReplayGuard();
  return {
    signingSecret: env.DUALSTATE_SLACK_SIGNING_SECRET,
    authSecret: await authSecret(db, env.DUALSTATE_AUTH_SECRET),
    baseUrl: env.DUALSTATE_BASE_URL,
    client: createSlackClient({ apiUrl: env.DUALSTATE_SLACK_API_URL }),
    replayGuard: globalForSlack.dualstateSlackReplayGuard,
    responseUrlAllowed: responseUrlAllowedFor(env.DUALSTATE_SLACK_API_URL),
  };
}

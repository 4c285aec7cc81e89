import type { SlackClient } from "./slack-client";

/** How Slack notifications are sent, from the environment (server/services/slack/slack-from-env.ts) or a test. */
export interface SlackDeliveryConfig {
  readonly client: SlackClient;
  /** Whether a Slack app (a bot token) is configured: direct messages, group channel ids, interactive buttons. */
  readonly hasApp: boolean;
  /** The deployment's default incoming webhook (DUALSTATE_SLACK_WEBHOOK_URL). */
  readonly defaultWebhookUrl?: string;
  /** Where the dashboard is reached (DUALSTATE_BASE_URL): the links are absolute. */
  readonly baseUrl: string;
  /** Hours before an escalation's deadline at which Slack reminds too (DUALSTATE_REMINDER_HOURS). */
  readonly reminderHours?: readonly number[];
  /** Attempts before a delivery is given up (its row keeps the last error). */
  readonly maxAttempts?: number;
  /** First retry delay; doubles per attempt up to an hour. */
  readonly baseDelayMs?: number;
}

/** The destination a group's Slack setting names, when it is usable: an http(s) webhook URL. */
export function usableWebhookUrl(stored: string | null | undefined): string | null {
  if (!stored) return null;
  try {
    const url = new URL(stored);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

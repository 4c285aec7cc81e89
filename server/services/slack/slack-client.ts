import type { SlackMessage } from "@/server/notifications/slack-message";

/** Posts Slack messages; rejects with Slack's reason when one is refused or Slack cannot be reached. */
export interface SlackClient {
  /** Posts to an incoming webhook (the URL is the secret). */
  postToWebhook(webhookUrl: string, message: SlackMessage): Promise<void>;
  /** chat.postMessage as the app's bot, to a channel id or a member id (a direct message). */
  postMessage(channel: string, message: SlackMessage): Promise<void>;
  /** Answers a button click through the response_url Slack gave with it. */
  respond(responseUrl: string, reply: Record<string, unknown>): Promise<void>;
}

export interface SlackClientConfig {
  /** Slack's Web API, https://slack.com/api (a test points it at its own server). */
  readonly apiUrl: string;
  /** The app's bot token; without one only webhooks can be posted to. */
  readonly botToken?: string;
  readonly timeoutMs?: number;
}

/** Slack's answers are small; a larger one is not read past this. */
const MAX_ANSWER_BYTES = 64 * 1024;

export function createSlackClient(config: SlackClientConfig): SlackClient {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json; charset=utf-8", ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs), redirect: "error" });

  return {
    async postToWebhook(webhookUrl, message) {
      const response = await post(webhookUrl, { text: message.text, blocks: message.blocks });
      const answer = await boundedText(response);
      // A webhook answers 200 "ok", or an error status with a reason (invalid_blocks, channel_not_found, …).
      if (!response.ok) throw new Error(`Slack webhook answered ${response.status}${retryAfter(response)}: ${oneLine(answer)}`);
    },
    async postMessage(channel, message) {
      if (!config.botToken) throw new Error("no Slack bot token is configured (DUALSTATE_SLACK_BOT_TOKEN)");
      const response = await post(`${config.apiUrl.replace(/\/+$/, "")}/chat.postMessage`, { channel, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false }, { authorization: `Bearer ${config.botToken}` });
      const answer = await boundedText(response);
      if (!response.ok) throw new Error(`Slack chat.postMessage answered ${response.status}${retryAfter(response)}: ${oneLine(answer)}`);
      // The Web API answers 200 with { ok: false, error } for a refusal (not_in_channel, invalid_auth, …).
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer);
      } catch {
        throw new Error(`Slack chat.postMessage answered something that is not JSON: ${oneLine(answer)}`);
      }
      const result = parsed as { ok?: unknown; error?: unknown };
      if (result.ok !== true) throw new Error(`Slack refused chat.postMessage: ${typeof result.error === "string" ? oneLine(result.error) : "no reason given"}`);
    },
    async respond(responseUrl, reply) {
      const response = await post(responseUrl, reply);
      const answer = await boundedText(response);
      if (!response.ok) throw new Error(`Slack's response_url answered ${response.status}: ${oneLine(answer)}`);
    },
  };
}

async function boundedText(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_ANSWER_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString("utf8");
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 300);
const retryAfter = (response: Response) => (response.headers.get("retry-after") ? ` (retry after ${response.headers.get("retry-after")?.slice(0, 10)} s)` : "");

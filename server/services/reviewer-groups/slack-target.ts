/**
 * A group's Slack settings as an admin types them. The webhook URL is a secret (whoever has it may
 * post to the channel): it is checked here, stored, and shown afterwards only as a hint.
 */
const MAX_URL = 500;
const CHANNEL = /^[A-Za-z0-9#][A-Za-z0-9._-]{0,79}$/;

/** Why `url` cannot be a Slack incoming webhook, or null. https only, except a local test server. */
export function webhookUrlProblem(url: string): string | null {
  if (url.length > MAX_URL) return `is ${url.length} characters; the limit is ${MAX_URL}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a URL such as https://hooks.slack.com/services/…";
  }
  const local = parsed.hostname === "localhost" || parsed.hostname === "127.0.0.1";
  if (parsed.protocol !== "https:" && !(local && parsed.protocol === "http:")) return "must be an https:// URL (plain http only for localhost)";
  if (parsed.username || parsed.password) return "must not carry a user name or password";
  return null;
}

/** Why `channel` cannot be a Slack channel id or name, or null. */
export function slackChannelProblem(channel: string): string | null {
  return CHANNEL.test(channel) ? null : "must be a Slack channel id (C0123ABCD) or #name: up to 80 letters, digits, dots, dashes or underscores";
}

/** What the page shows of a saved webhook URL: its host and last 4 characters, never the secret path. */
export function webhookHint(url: string | null): string | null {
  if (!url) return null;
  let host = "webhook";
  try {
    host = new URL(url).host;
  } catch {
    // Stored before validation existed: the hint still hides it.
  }
  return `${host}/…${url.slice(-4)}`;
}

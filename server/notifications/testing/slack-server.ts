import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { signSlackRequest } from "../slack-signature";

/** A request the Slack-shaped server accepted: a chat.postMessage, a webhook post, or an answer to a click. */
export interface SlackPost {
  readonly kind: "chat.postMessage" | "webhook" | "response";
  /** The channel (chat.postMessage), the webhook's path, or the response_url's path. */
  readonly to: string;
  readonly body: Record<string, unknown>;
}

export interface SlackServer {
  /** What to set DUALSTATE_SLACK_API_URL to. */
  readonly apiUrl: string;
  readonly received: SlackPost[];
  /** Requests refused for a wrong or missing bearer token, or an unknown webhook. */
  readonly refused: string[];
  /** A new incoming webhook's URL (its path is its secret). */
  webhook(name: string): string;
  /** A response_url for one click (one named "broken…" answers 500). */
  responseUrl(name: string): string;
  /** Answer chat.postMessage with { ok: false, error } until cleared (channel_not_found, ratelimited…). */
  refuseWith: string | null;
  /** Clicks `actionId` on a message as the Slack member `userId`: a signed POST to `interactionsUrl`, as Slack sends it. */
  click(interactionsUrl: string, click: SlackClick, signing?: ClickSigning): Promise<{ status: number; text: string; request: SignedClick }>;
  /** Sends a signed click again, byte for byte (a replay). */
  resend(interactionsUrl: string, request: SignedClick): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export interface SlackClick {
  readonly userId: string;
  readonly actionId: string;
  readonly value: string;
  readonly responseUrl: string;
}

export interface ClickSigning {
  /** Signs with this secret instead of the app's (a forger). */
  readonly secret?: string;
  /** The request's Unix time (default: now). */
  readonly timestamp?: number;
  /** Changes the body after signing. */
  readonly tamper?: (body: string) => string;
}

export interface SignedClick {
  readonly body: string;
  readonly headers: Record<string, string>;
}

/**
 * A Slack-shaped HTTP server on 127.0.0.1 for tests: it answers the Web API's chat.postMessage only
 * with the expected bot token, incoming webhooks only on paths it handed out, and response_urls;
 * and it clicks buttons the way Slack does, signing each request with the app's signing secret.
 */
export async function startSlackServer(options: { botToken: string; signingSecret: string; port?: number }): Promise<SlackServer> {
  const webhooks = new Set<string>();
  const received: SlackPost[] = [];
  const refused: string[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (request.method !== "POST") return json(405, { ok: false, error: "method_not_allowed" });
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return json(400, { ok: false, error: "invalid_json" });
      }
      if (path === "/api/chat.postMessage") {
        if (request.headers.authorization !== `Bearer ${options.botToken}`) {
          refused.push(`chat.postMessage with ${request.headers.authorization ?? "no authorization"}`);
          return json(200, { ok: false, error: "invalid_auth" });
        }
        if (slack.refuseWith) return json(200, { ok: false, error: slack.refuseWith });
        if (typeof parsed.channel !== "string" || !Array.isArray(parsed.blocks)) return json(200, { ok: false, error: "invalid_arguments" });
        received.push({ kind: "chat.postMessage", to: parsed.channel, body: parsed });
        return json(200, { ok: true, channel: parsed.channel, ts: `${Date.now() / 1000}` });
      }
      if (path.startsWith("/hooks/")) {
        if (!webhooks.has(path)) {
          refused.push(`webhook ${path}`);
          response.writeHead(404, { "content-type": "text/plain" });
          return response.end("no_service");
        }
        received.push({ kind: "webhook", to: path, body: parsed });
        response.writeHead(200, { "content-type": "text/plain" });
        return response.end("ok");
      }
      if (path.startsWith("/respond/broken")) return json(500, { ok: false, error: "internal_error" });
      if (path.startsWith("/respond/")) {
        received.push({ kind: "response", to: path, body: parsed });
        return json(200, { ok: true });
      }
      return json(404, { ok: false, error: "unknown_method" });
    })();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const post = async (url: string, request: SignedClick) => {
    const response = await fetch(url, { method: "POST", headers: request.headers, body: request.body });
    return { status: response.status, text: await response.text() };
  };
  const slack: SlackServer = {
    apiUrl: `${origin}/api`,
    received,
    refused,
    refuseWith: null,
    webhook(name) {
      webhooks.add(`/hooks/${name}`);
      return `${origin}/hooks/${name}`;
    },
    responseUrl: (name) => `${origin}/respond/${name}`,
    async click(interactionsUrl, click, signing = {}) {
      const payload = {
        type: "block_actions",
        user: { id: click.userId, username: click.userId.toLowerCase() },
        team: { id: "T0TEST" },
        actions: [{ type: "button", action_id: click.actionId, block_id: "b1", value: click.value, action_ts: `${Date.now() / 1000}` }],
        response_url: click.responseUrl,
        trigger_id: "1.2.3",
      };
      const signed = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      const timestamp = String(signing.timestamp ?? Math.floor(Date.now() / 1000));
      const request: SignedClick = {
        body: signing.tamper ? signing.tamper(signed) : signed,
        headers: { "content-type": "application/x-www-form-urlencoded", "x-slack-request-timestamp": timestamp, "x-slack-signature": signSlackRequest(signing.secret ?? options.signingSecret, timestamp, signed) },
      };
      return { ...(await post(interactionsUrl, request)), request };
    },
    resend: (interactionsUrl, request) => post(interactionsUrl, request),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return slack;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Serves `handle` (a route handler's shape) over HTTP on 127.0.0.1, for a test to send real requests to. */
export async function serveRouteHandler(handle: (request: Request) => Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readBody(incoming);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
      const response = await handle(new Request(`http://127.0.0.1${incoming.url ?? "/"}`, { method: incoming.method, headers, body: incoming.method === "POST" ? body : undefined }));
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(await response.text());
    })().catch((error: unknown) => {
      outgoing.writeHead(500);
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/slack/interactions`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

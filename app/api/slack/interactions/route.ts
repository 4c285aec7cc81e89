import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { wakeOutboxDispatchers } from "@/server/services/outbox/outbox-signal";
import { handleSlackInteraction } from "@/server/services/slack/handle-slack-interaction";
import { slackInteractionConfig } from "@/server/services/slack/slack-interactions-from-env";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A click's payload is a few kilobytes; anything bigger is refused unread. */
const MAX_BODY_BYTES = 64 * 1024;

/** Slack's interactivity request URL: a button clicked on an escalation message (signed by Slack). */
export async function POST(request: Request): Promise<Response> {
  const length = Number(request.headers.get("content-length") ?? "NaN");
  if (!Number.isFinite(length) || length > MAX_BODY_BYTES) return new Response("The request is too large or has no length.", { status: 413 });
  const db = getDb();
  const config = await slackInteractionConfig(db, getEnv());
  if (!config) return new Response("No Slack app is configured here (DUALSTATE_SLACK_SIGNING_SECRET).", { status: 404 });
  const body = await request.text();
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return new Response("The request is too large.", { status: 413 });
  const result = await handleSlackInteraction(db, config, { body, timestamp: request.headers.get("x-slack-request-timestamp"), signature: request.headers.get("x-slack-signature") });
  if (result.outcome) wakeOutboxDispatchers();
  return new Response(result.body, { status: result.status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

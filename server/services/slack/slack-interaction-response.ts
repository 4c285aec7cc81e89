import type { Db } from "@/server/persistence/db";
import { wakeOutboxDispatchers } from "../outbox/outbox-signal";
import { handleSlackInteraction, type SlackInteractionConfig } from "./handle-slack-interaction";

/** A click's payload is a few kilobytes; anything bigger is refused unread. */
const MAX_BODY_BYTES = 64 * 1024;

/** Runs work once the response has been sent (the route passes Next's `after`). */
export type AfterResponse = (work: () => Promise<void>) => void;

/**
 * The HTTP side of Slack's interactivity request URL (app/api/slack/interactions): bounds, then
 * the handler; the answer to the clicker goes to Slack's response_url after the 200.
 */
export async function slackInteractionResponse(request: Request, db: Db, config: SlackInteractionConfig | null, afterResponse: AfterResponse): Promise<Response> {
  const text = (body: string, status: number) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (!config) return text("No Slack app is configured here (DUALSTATE_SLACK_SIGNING_SECRET).", 404);
  const length = Number(request.headers.get("content-length") ?? "NaN");
  if (!Number.isFinite(length) || length > MAX_BODY_BYTES) return text("The request is too large or has no length.", 413);
  const body = await request.text();
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return text("The request is too large.", 413);
  const result = await handleSlackInteraction(db, config, { body, timestamp: request.headers.get("x-slack-request-timestamp"), signature: request.headers.get("x-slack-signature") });
  if (result.outcome) wakeOutboxDispatchers();
  const answer = result.answer;
  if (answer) {
    afterResponse(async () => {
      const error = await answer();
      if (error) console.error(`slack interactions: the answer to a click was not taken: ${error}`);
    });
  }
  return text(result.body, result.status);
}

import { after } from "next/server";
import { getEnv } from "@/server/env";
import { getDb } from "@/server/persistence/db";
import { slackInteractionResponse } from "@/server/services/slack/slack-interaction-response";
import { slackInteractionConfig } from "@/server/services/slack/slack-interactions-from-env";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Slack's interactivity request URL: a button clicked on an escalation message (signed by Slack). */
export async function POST(request: Request): Promise<Response> {
  const db = getDb();
  return slackInteractionResponse(request, db, await slackInteractionConfig(db, getEnv()), after);
}

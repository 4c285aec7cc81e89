import type { Env } from "@/server/env";
import { createDb } from "@/server/persistence/db";
import type { PollLoop } from "../outbox/poll-loop";
import { startWebhookDispatcher } from "./webhook-dispatcher";

/** The escalation webhook dispatcher for DUALSTATE_WEBHOOK_URL, or undefined when none is configured. */
export function startWebhooksFromEnv(env: Env, log: (line: string) => void): PollLoop | undefined {
  if (!env.DUALSTATE_WEBHOOK_URL || !env.DUALSTATE_WEBHOOK_SECRET) return undefined;
  const db = createDb(env.DATABASE_URL);
  const dispatcher = startWebhookDispatcher(db, { url: env.DUALSTATE_WEBHOOK_URL, secret: env.DUALSTATE_WEBHOOK_SECRET }, { log });
  return {
    async stop() {
      await dispatcher.stop();
      await db.$disconnect();
    },
  };
}

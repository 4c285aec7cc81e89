import type { Db } from "@/server/persistence/db";
import { startPollLoop, type PollLoop } from "../outbox/poll-loop";
import { deliverDueWebhooks, type WebhookConfig } from "./deliver-webhooks";
import { queueWebhookEvents } from "./webhook-outbox";

/** Polls the webhook outbox: queues new escalation events, then delivers what is due. */
export function startWebhookDispatcher(db: Db, config: WebhookConfig, options: { pollMs?: number; log?: (line: string) => void } = {}): PollLoop {
  return startPollLoop("webhook dispatcher", async () => {
    await queueWebhookEvents(db);
    await deliverDueWebhooks(db, config);
  }, options);
}

import type { Db } from "@/server/persistence/db";
import { deliverDueWebhooks, type WebhookConfig } from "./deliver-webhooks";
import { webhookSignal } from "./dispatcher-signal";
import { queueWebhookEvents } from "./webhook-outbox";

export interface WebhookDispatcher {
  stop(): Promise<void>;
}

/**
 * Polls the outbox (every `pollMs`, or at once when a decision in this process signals): queues
 * new escalation events, then delivers what is due. Errors are logged and the loop goes on.
 */
export function startWebhookDispatcher(db: Db, config: WebhookConfig, options: { pollMs?: number; log?: (line: string) => void } = {}): WebhookDispatcher {
  let stopped = false;
  let wake: (() => void) | undefined;
  const onWake = () => wake?.();
  webhookSignal().on("wake", onWake);
  const loop = (async () => {
    while (!stopped) {
      try {
        await queueWebhookEvents(db);
        await deliverDueWebhooks(db, config);
      } catch (error) {
        options.log?.(`webhook dispatcher: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs ?? 1_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      webhookSignal().off("wake", onWake);
      await loop;
    },
  };
}

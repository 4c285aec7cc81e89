import { EventEmitter } from "node:events";

// One signal per process (on globalThis, shared by Next.js's bundles): a decision asks the
// dispatcher to look now rather than at its next poll. The outbox rows are the source of truth.
const globalForSignal = globalThis as unknown as { dualstateWebhookSignal?: EventEmitter };

export function webhookSignal(): EventEmitter {
  globalForSignal.dualstateWebhookSignal ??= new EventEmitter().setMaxListeners(0);
  return globalForSignal.dualstateWebhookSignal;
}

export function notifyWebhookDispatcher(): void {
  webhookSignal().emit("wake");
}

import { EventEmitter } from "node:events";

// One signal per process (on globalThis, shared by Next.js's bundles): a decision asks the
// outbox dispatchers (webhooks, notifications) to look now rather than at their next poll.
// The outbox rows are the source of truth; the signal only saves a poll interval.
const globalForSignal = globalThis as unknown as { dualstateOutboxSignal?: EventEmitter };

export function outboxSignal(): EventEmitter {
  globalForSignal.dualstateOutboxSignal ??= new EventEmitter().setMaxListeners(0);
  return globalForSignal.dualstateOutboxSignal;
}

export function wakeOutboxDispatchers(): void {
  outboxSignal().emit("wake");
}

import type { Db } from "@/server/persistence/db";
import { recordDeliveryOutcome } from "../outbox/record-delivery-outcome";
import { outboxBackoffMs } from "../outbox/retry-backoff";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signPayload } from "./sign-payload";

export interface WebhookConfig {
  readonly url: string;
  readonly secret: string;
  /** Attempts before a delivery is given up (its row keeps the last error). */
  readonly maxAttempts?: number;
  /** First retry delay; doubles per attempt up to an hour. */
  readonly baseDelayMs?: number;
  readonly timeoutMs?: number;
}


/**
 * Sends every due delivery once: signed POST, 2xx is delivered; anything else (or no answer in
 * time) schedules a retry with backoff, until the last attempt marks it failed. A row is
 * claimed by compare-and-swap on its attempt count, so two dispatchers never send it at once.
 */
export async function deliverDueWebhooks(db: Db, config: WebhookConfig, now = new Date()): Promise<{ delivered: number; retried: number; failed: number }> {
  const maxAttempts = config.maxAttempts ?? 8;
  const due = await db.webhookDelivery.findMany({ where: { deliveredAt: null, failedAt: null, nextAttemptAt: { lte: now } }, orderBy: { nextAttemptAt: "asc" }, take: 50 });
  const tally = { delivered: 0, retried: 0, failed: 0 };
  for (const delivery of due) {
    const attempts = delivery.attempts + 1;
    // Claim: push the next attempt past the request's timeout; a dispatcher that crashes mid-send retries later.
    const claimed = await db.webhookDelivery.updateMany({
      where: { id: delivery.id, attempts: delivery.attempts, deliveredAt: null, failedAt: null },
      data: { attempts, nextAttemptAt: new Date(now.getTime() + (config.timeoutMs ?? 10_000) + outboxBackoffMs(attempts, config.baseDelayMs)) },
    });
    if (claimed.count !== 1) continue;
    const error = await post(config, delivery.id, delivery.event, delivery.payload);
    tally[await recordDeliveryOutcome(db.webhookDelivery, { id: delivery.id, attempts, maxAttempts, baseDelayMs: config.baseDelayMs, now }, error === null ? null : { error })]++;
  }
  return tally;
}

/** POSTs one delivery; null when the receiver answered 2xx, else what went wrong. */
async function post(config: WebhookConfig, deliveryId: string, event: string, body: string): Promise<string | null> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  try {
    const response = await fetch(config.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-dualstate-event": event,
        "x-dualstate-delivery": deliveryId,
        [TIMESTAMP_HEADER]: timestamp,
        [SIGNATURE_HEADER]: signPayload(config.secret, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
    });
    await response.body?.cancel();
    return response.ok ? null : `HTTP ${response.status} ${response.statusText}`.trim();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

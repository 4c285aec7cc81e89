import { outboxBackoffMs } from "./retry-backoff";

/** The columns an attempt's outcome sets; every outbox table (webhooks, notifications) has them. */
interface OutcomeColumns {
  deliveredAt?: Date;
  failedAt?: Date;
  nextAttemptAt?: Date;
  lastError: string | null;
}

/** An outbox table, as Prisma's delegate for it (`db.webhookDelivery`, `db.notificationDelivery`). */
export interface OutboxRows {
  update(args: { where: { id: string }; data: OutcomeColumns; select: { id: true } }): PromiseLike<unknown>;
}

/** One claimed attempt: `attempts` counts this one. */
export interface OutboxAttempt {
  readonly id: string;
  readonly attempts: number;
  readonly maxAttempts: number;
  /** First retry delay; doubles per attempt up to an hour. */
  readonly baseDelayMs?: number;
  /** The dispatcher's pass time: a retry is scheduled from it. */
  readonly now: Date;
}

export type DeliveryOutcome = "delivered" | "retried" | "failed";

/** How a send went: null when it went out, else what it threw. */
export type SendFailure = { readonly error: unknown } | null;

/** Runs a send and catches what it throws (synchronously too), for recordDeliveryOutcome. */
export async function failureOf(send: () => Promise<unknown>): Promise<SendFailure> {
  try {
    await send();
    return null;
  } catch (error) {
    return { error };
  }
}

/** Longest error text a row keeps. */
const MAX_ERROR_LENGTH = 500;

/**
 * Writes how a send went: delivered; or, when it failed, a retry with backoff, or failed for
 * good at the last attempt, keeping the error. `failure` is null when the send succeeded.
 */
export async function recordDeliveryOutcome(rows: OutboxRows, attempt: OutboxAttempt, failure: SendFailure): Promise<DeliveryOutcome> {
  const where = { id: attempt.id };
  const select = { id: true } as const;
  if (failure === null) {
    await rows.update({ where, data: { deliveredAt: new Date(), lastError: null }, select });
    return "delivered";
  }
  const lastError = (failure.error instanceof Error ? failure.error.message : String(failure.error)).slice(0, MAX_ERROR_LENGTH);
  if (attempt.attempts >= attempt.maxAttempts) {
    await rows.update({ where, data: { failedAt: new Date(), lastError }, select });
    return "failed";
  }
  await rows.update({ where, data: { nextAttemptAt: new Date(attempt.now.getTime() + outboxBackoffMs(attempt.attempts, attempt.baseDelayMs)), lastError }, select });
  return "retried";
}

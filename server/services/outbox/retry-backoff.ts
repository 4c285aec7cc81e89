/** Delay before attempt `attempts + 1` of an outbox delivery: base · 2^(attempts-1), at most an hour. */
export function outboxBackoffMs(attempts: number, baseDelayMs = 1_000): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** Capped exponential backoff for deferred inbox messages: 1 s, 2 s, 4 s … up to `capMs`. */
export function backoffMs(retryCount: number, baseMs = 1000, capMs = 60_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, retryCount - 1));
}

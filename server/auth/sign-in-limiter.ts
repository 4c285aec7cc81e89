/**
 * Limits sign-in attempts in memory (per server process): failed attempts per email, and all
 * attempts per client address, each within a sliding window. A success clears the email's count.
 */
export interface SignInLimits {
  readonly failuresPerEmail: number;
  readonly attemptsPerAddress: number;
  readonly windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { failuresPerEmail: 5, attemptsPerAddress: 30, windowMs: 5 * 60_000 };

/** Emails and addresses remembered at most; beyond it the oldest are forgotten (memory stays bounded). */
const MAX_KEYS = 50_000;

export type LimitVerdict = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number; readonly reason: string };

export class SignInLimiter {
  readonly #failuresByEmail = new Map<string, number[]>();
  readonly #attemptsByAddress = new Map<string, number[]>();

  constructor(private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS) {}

  /** Whether an attempt may go ahead; an allowed attempt counts against the address. */
  attempt(email: string, address: string, now = Date.now()): LimitVerdict {
    const failures = this.#recent(this.#failuresByEmail, email, now);
    if (failures.length >= this.limits.failuresPerEmail) {
      return { allowed: false, retryAfterSeconds: this.#retryAfter(failures, now), reason: `${failures.length} failed sign-ins for this email` };
    }
    const attempts = this.#recent(this.#attemptsByAddress, address, now);
    if (attempts.length >= this.limits.attemptsPerAddress) {
      return { allowed: false, retryAfterSeconds: this.#retryAfter(attempts, now), reason: `${attempts.length} sign-in attempts from this address` };
    }
    attempts.push(now);
    return { allowed: true };
  }

  failed(email: string, now = Date.now()): void {
    this.#recent(this.#failuresByEmail, email, now).push(now);
  }

  succeeded(email: string): void {
    this.#failuresByEmail.delete(email);
  }

  #recent(map: Map<string, number[]>, key: string, now: number): number[] {
    const kept = (map.get(key) ?? []).filter((at) => now - at < this.limits.windowMs);
    // Re-inserted, so the map's order is least recently seen first.
    map.delete(key);
    map.set(key, kept);
    if (map.size > MAX_KEYS) map.delete(map.keys().next().value!);
    return kept;
  }

  #retryAfter(times: readonly number[], now: number): number {
    return Math.max(1, Math.ceil((times[0]! + this.limits.windowMs - now) / 1000));
  }
}

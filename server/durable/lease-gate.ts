import { LeaseLostError } from "./errors";
import type { ClaimedTurn } from "./types";

/** What the gate needs of the store: a renewal that is itself the proof (a compare-and-swap by the database's clock). */
export interface LeaseRenewer {
  renewLease(turn: ClaimedTurn, leaseMs: number): Promise<boolean>;
}

/**
 * A turn's proof that it still holds its run, checked before anything with an effect: a model
 * or tool call, a guard, a write. A worker that cannot show a valid lease makes no call, starts
 * no sandbox and writes nothing; it says "lease lost" once.
 *
 * The proof is kept without asking the database each time: a renewal that succeeded proves the
 * lease until `leaseMs` after the renewal was *sent* (the database granted it later than that,
 * so this errs early), measured on the monotonic clock, so neither a wall clock running ahead
 * nor one set back matters. A heartbeat renews every third of the lease. When the proof runs out
 * (the process was paused past its lease: SIGSTOP, a long GC, a laptop lid) a timer fires at
 * once on resumption, before any retry or backoff timer set later, and stops the turn; `check()`
 * then asks the database once before refusing.
 */
export class LeaseGate {
  #validUntil: number;
  #lost = false;
  /** The turn ended (its last commit released the lease): a renewal still in flight proves nothing. */
  #stopped = false;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: LeaseRenewer,
    private readonly turn: ClaimedTurn,
    private readonly leaseMs: number,
    /** Called once, when the lease is found lost: stop the turn. */
    private readonly onLost: (error: LeaseLostError) => void,
    private readonly log?: (line: string) => void,
    /** performance.now() when the claim that granted the lease was sent. */
    grantedAt = turn.claimSentAt ?? performance.now(),
  ) {
    this.#validUntil = grantedAt + leaseMs;
  }

  get lost(): boolean {
    return this.#lost;
  }

  start(): void {
    this.#armDeadline();
    this.#heartbeat = setInterval(() => void this.#renew().catch(() => {}), Math.max(50, this.leaseMs / 3));
    this.#heartbeat.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#deadline);
  }

  /** Resolves while the turn can show a valid lease. @throws LeaseLostError */
  async check(): Promise<void> {
    if (this.#lost) throw new LeaseLostError(this.turn.runId, this.turn.epoch);
    if (performance.now() < this.#validUntil) return;
    if (!(await this.#renew())) throw new LeaseLostError(this.turn.runId, this.turn.epoch);
  }

  /** The database refused a write of this turn (its compare-and-swap): the lease is lost. */
  markLost(): void {
    if (this.#lost || this.#stopped) return;
    this.#lost = true;
    this.stop();
    this.log?.(`run ${this.turn.runId}: lease lost by the turn of epoch ${this.turn.epoch}; it stops without writing`);
    this.onLost(new LeaseLostError(this.turn.runId, this.turn.epoch));
  }

  async #renew(): Promise<boolean> {
    if (this.#lost) return false;
    const sentAt = performance.now();
    let held: boolean;
    try {
      held = await this.store.renewLease(this.turn, this.leaseMs);
    } catch {
      // The database is unreachable: the proof runs out on its own when the lease would.
      return performance.now() < this.#validUntil;
    }
    if (!held) {
      this.markLost();
      return false;
    }
    if (this.#stopped) return true;
    this.#validUntil = Math.max(this.#validUntil, sentAt + this.leaseMs);
    this.#armDeadline();
    return true;
  }

  #armDeadline(): void {
    clearTimeout(this.#deadline);
    if (this.#lost) return;
    this.#deadline = setTimeout(() => {
      if (performance.now() >= this.#validUntil) this.markLost();
      else this.#armDeadline();
    }, Math.max(0, this.#validUntil - performance.now()));
    this.#deadline.unref();
  }
}

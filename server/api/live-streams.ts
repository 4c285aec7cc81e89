/**
 * Every tRPC subscription (a server-sent event stream: a run's events, its live model call...) goes
 * through `liveStream`, which
 * - limits how many streams one user holds open at once (in this server process): the next one is
 *   refused with TOO_MANY_REQUESTS and a message saying what to do;
 * - asks again who the request's credentials belong to every 30 s and before each event (at most
 *   once a second), and ends the stream with UNAUTHORIZED when the session has expired or been
 *   signed out, the API token was revoked, or the user was disabled;
 * - stops the source (through its abort signal) whenever the stream ends, for whatever reason.
 */
import { TRPCError } from "@trpc/server";
import type { Actor } from "./trpc";

export const MAX_STREAMS_PER_USER = 20;
export const RECHECK_INTERVAL_MS = 30_000;
/** Before an event the credentials are checked again only if the last check is older than this. */
export const MIN_RECHECK_MS = 1_000;

/** Open streams per user id. */
export class StreamSlots {
  readonly #open = new Map<string, number>();

  constructor(readonly maxPerUser = MAX_STREAMS_PER_USER) {}

  tryAcquire(userId: string): boolean {
    const open = this.#open.get(userId) ?? 0;
    if (open >= this.maxPerUser) return false;
    this.#open.set(userId, open + 1);
    return true;
  }

  release(userId: string): void {
    const open = (this.#open.get(userId) ?? 1) - 1;
    if (open <= 0) this.#open.delete(userId);
    else this.#open.set(userId, open);
  }

  openFor(userId: string): number {
    return this.#open.get(userId) ?? 0;
  }
}

const globalForStreams = globalThis as unknown as { dualstateStreamSlots?: StreamSlots };

export interface LiveStreamContext {
  readonly actor: Actor;
  /** Who the request's credentials belong to now; absent for in-process callers (nothing to re-check). */
  readonly reauthorize?: () => Promise<Actor | null>;
}

export interface LiveStreamOptions {
  readonly slots?: StreamSlots;
  readonly recheckIntervalMs?: number;
  readonly minRecheckMs?: number;
}

const STOPPED = Symbol("stopped");

export async function* liveStream<T>(ctx: LiveStreamContext, signal: AbortSignal | undefined, open: (signal: AbortSignal) => AsyncIterable<T>, options: LiveStreamOptions = {}): AsyncGenerator<T> {
  const slots = options.slots ?? (globalForStreams.dualstateStreamSlots ??= new StreamSlots());
  const { actor } = ctx;
  if (!slots.tryAcquire(actor.id)) {
    throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: `${actor.email} already has ${slots.maxPerUser} live updates open (each open run page uses two); close some pages or tabs and reload` });
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener("abort", stop, { once: true });
  const stopped = new Promise<typeof STOPPED>((resolve) => controller.signal.addEventListener("abort", () => resolve(STOPPED), { once: true }));
  if (signal?.aborted) stop();

  let ended: string | null = null;
  let lastCheck = Date.now();
  const recheck = async () => {
    if (!ctx.reauthorize || ended) return;
    lastCheck = Date.now();
    const now = await ctx.reauthorize().catch(() => null);
    if (now?.id === actor.id) return;
    ended = actor.via === "token" ? "The API token of this stream was revoked or its user disabled; the stream has ended" : "Your session has ended (expired, signed out or disabled); sign in again";
    stop();
  };
  const timer = setInterval(() => void recheck(), options.recheckIntervalMs ?? RECHECK_INTERVAL_MS);
  timer.unref?.();

  const iterator = open(controller.signal)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), stopped]);
      if (next === STOPPED || next.done) break;
      if (Date.now() - lastCheck >= (options.minRecheckMs ?? MIN_RECHECK_MS)) await recheck();
      if (ended) break;
      yield next.value;
    }
    if (ended) throw new TRPCError({ code: "UNAUTHORIZED", message: ended });
  } finally {
    clearInterval(timer);
    signal?.removeEventListener("abort", stop);
    stop();
    // The source may be mid-poll; it sees the aborted signal and returns on its own.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
    slots.release(actor.id);
  }
}

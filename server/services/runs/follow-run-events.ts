import { TERMINAL_RUN_STATUSES } from "@/server/durable/lifecycle";
import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";

/** Statuses after which a run writes nothing more. */
export const ENDED_RUN_STATUSES: ReadonlySet<string> = new Set(TERMINAL_RUN_STATUSES);

export interface RunEvent {
  readonly seq: number;
  readonly type: string;
  readonly actor: string;
  readonly epoch: number;
  readonly createdAt: Date;
  readonly payload: Record<string, unknown>;
}

/**
 * A run's ledger entries after `afterSeq`, then each new one as it is committed, until the run
 * has ended and everything is delivered. Workers may be other processes, so new entries are read
 * from the ledger (by the (runId, seq) index) every `pollMs`; a reconnecting client passes the
 * last seq it saw and loses nothing.
 */
export async function* followRunEvents(db: Db, runId: string, afterSeq: number, signal?: AbortSignal, pollMs = 250): AsyncGenerator<RunEvent> {
  let last = afterSeq;
  for (;;) {
    if (signal?.aborted) return;
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    if (!run) throw notFound("Run", runId);
    const entries = await db.ledgerEntry.findMany({ where: { runId, seq: { gt: last } }, orderBy: { seq: "asc" }, take: 500, select: { seq: true, type: true, actor: true, epoch: true, createdAt: true, payload: true } });
    for (const entry of entries) {
      yield { ...entry, payload: (entry.payload ?? {}) as Record<string, unknown> };
      last = entry.seq;
    }
    // The status was read before the entries: an ended run has written its last one by then.
    if (ENDED_RUN_STATUSES.has(run.status) && entries.length < 500) return;
    if (entries.length === 500) continue;
    await pause(run.status === "suspended" ? pollMs * 4 : pollMs, signal);
  }
}

/** Waits `ms`, or less when `signal` aborts; leaves no listener behind on the long-lived signal. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

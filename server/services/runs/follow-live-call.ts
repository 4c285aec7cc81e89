import type { Db } from "@/server/persistence/db";
import { notFound } from "../errors";
import { ENDED_RUN_STATUSES, pause } from "./follow-run-events";

/** The text a run's model call in flight has streamed so far. */
export interface LiveCall {
  readonly stepName: string;
  readonly attempt: number;
  readonly text: string;
  readonly updatedAt: Date;
}

/**
 * The run's `LiveCall` row each time it changes (null once it is cleared: the call's result is
 * recorded), until the run has ended. Workers may be other processes, so the row is read every
 * `pollMs`, which is about how often a worker writes it; a reconnecting client simply gets the
 * current text again.
 */
export async function* followLiveCall(db: Db, runId: string, signal?: AbortSignal, pollMs = 200): AsyncGenerator<LiveCall | null> {
  let last: string | undefined;
  for (;;) {
    if (signal?.aborted) return;
    const [run, row] = await Promise.all([
      db.run.findUnique({ where: { id: runId }, select: { status: true } }),
      db.liveCall.findUnique({ where: { runId }, select: { stepName: true, attempt: true, text: true, updatedAt: true, epoch: true } }),
    ]);
    if (!run) throw notFound("Run", runId);
    const version = row ? `${row.epoch}:${row.updatedAt.getTime()}:${row.text.length}` : "none";
    if (version !== last) {
      last = version;
      yield row ? { stepName: row.stepName, attempt: row.attempt, text: row.text, updatedAt: row.updatedAt } : null;
    }
    // The status was read with the row: an ended run's worker has cleared it or never will.
    if (ENDED_RUN_STATUSES.has(run.status)) return;
    await pause(run.status === "suspended" ? pollMs * 5 : pollMs, signal);
  }
}

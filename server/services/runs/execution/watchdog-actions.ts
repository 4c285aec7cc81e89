import type { Db } from "@/server/persistence/db";

/** Each source is read to this many rows; the merged list keeps the newest of them. */
export const WATCHDOG_ACTION_LIMIT = 50;

export interface WatchdogAction {
  /** note: Run.watchdogNote, the last thing it did; took_over: a lost turn (its reclaim, or a cancel's takeover); expired_escalation; timed_out_call. */
  readonly action: "note" | "took_over" | "expired_escalation" | "timed_out_call";
  /** When it happened by the database's clock; null for a note without a time. */
  readonly at: Date | null;
  readonly text: string;
  readonly epoch: number | null;
  readonly callId: string | null;
  readonly escalationId: string | null;
}

export interface WatchdogActions {
  /** Newest first. */
  readonly items: readonly WatchdogAction[];
  readonly total: number;
}

/** The watchdog's notes start with the database's time: "2026-11-26T06:00:00.000Z: lease of … expired". */
const NOTE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z): /;

function noteAction(note: string): WatchdogAction {
  const match = NOTE_TIME.exec(note);
  const at = match ? new Date(match[1]!) : null;
  return { action: "note", at: at && !Number.isNaN(at.getTime()) ? at : null, text: match ? note.slice(match[0].length) : note, epoch: null, callId: null, escalationId: null };
}

/**
 * What the watchdog did to a run: its last note (Run.watchdogNote), the turns it found lost
 * (TurnRecord outcome "lost", written by whoever took the run over), the escalations it expired
 * (timeout inbox messages) and the waiting calls it timed out (ToolWait status timed_out, each
 * with its timeout report). The timeout edges mirror these messages and reports one for one, so
 * they are not read again.
 */
export async function listWatchdogActions(db: Db, run: { id: string; watchdogNote: string | null }, limit = WATCHDOG_ACTION_LIMIT): Promise<WatchdogActions> {
  const runId = run.id;
  const [lost, lostCount, timeouts, timeoutCount, timedOut, timedOutCount] = await Promise.all([
    db.turnRecord.findMany({ where: { runId, outcome: "lost" }, orderBy: { epoch: "desc" }, take: limit, select: { epoch: true, workerId: true, reason: true, endedAt: true } }),
    db.turnRecord.count({ where: { runId, outcome: "lost" } }),
    db.inboxMessage.findMany({ where: { runId, kind: "timeout" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, select: { payload: true, createdAt: true } }),
    db.inboxMessage.count({ where: { runId, kind: "timeout" } }),
    db.toolWait.findMany({ where: { runId, status: "timed_out" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, select: { id: true, tool: true, deadlineAt: true, reportedAt: true } }),
    db.toolWait.count({ where: { runId, status: "timed_out" } }),
  ]);
  const items: WatchdogAction[] = [
    ...lost.map((turn): WatchdogAction => ({
      action: "took_over",
      at: turn.endedAt,
      text: `Turn at epoch ${turn.epoch}${turn.workerId ? ` (worker ${turn.workerId})` : ""} was lost${turn.reason ? `: ${turn.reason.slice(0, 500)}` : ""}`,
      epoch: turn.epoch,
      callId: null,
      escalationId: null,
    })),
    ...timeouts.map((message): WatchdogAction => {
      const escalationId = typeof (message.payload as { escalationId?: unknown } | null)?.escalationId === "string" ? (message.payload as { escalationId: string }).escalationId : null;
      return { action: "expired_escalation", at: message.createdAt, text: `${escalationId ? `Escalation ${escalationId}` : "An escalation"} expired past its deadline; the run resumes to fail`, epoch: null, callId: null, escalationId };
    }),
    ...timedOut.map((wait): WatchdogAction => ({
      action: "timed_out_call",
      at: wait.reportedAt ?? wait.deadlineAt,
      text: `Call ${wait.id} (${wait.tool}) timed out at its deadline ${wait.deadlineAt.toISOString()}`,
      epoch: null,
      callId: wait.id,
      escalationId: null,
    })),
  ].sort((a, b) => (b.at?.getTime() ?? 0) - (a.at?.getTime() ?? 0));
  const note = run.watchdogNote ? [noteAction(run.watchdogNote)] : [];
  return { items: [...note, ...items].slice(0, limit), total: note.length + lostCount + timeoutCount + timedOutCount };
}

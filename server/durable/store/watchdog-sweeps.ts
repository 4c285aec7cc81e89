import type { SqlClient } from "../../persistence/sql/sql-client";
import { HELD_RUN_STATUSES, TERMINAL_RUN_STATUSES, liveRunPredicate, sqlList, type InboxKind } from "../lifecycle";
import { insertTurnRecord } from "./insert-turn-record";
import { HANDOFF_AUDIT_ACTIONS } from "../../review-policy/hand-off";
import { readPolicy } from "./hand-off-escalation";

export interface ReclaimedRun {
  readonly runId: string;
  readonly leaseOwner: string | null;
  readonly epoch: number;
}

/**
 * Watchdog, part 1: runs whose turn's lease expired by the database's clock (the worker died or
 * hangs) go back to the inbox with a new epoch, so the old turn's late writes fail their
 * compare-and-swap. Each claimed message is deferred, after `backoffMs(retries)`, and counts the
 * crash in its payload (a run that keeps killing its worker is given up, execute-turn.ts).
 */
export async function reclaimExpiredLeases(sql: SqlClient, backoffMs: (retryCount: number) => number): Promise<ReclaimedRun[]> {
  const d = sql.dialect;
  // The live-run term lets the sweep walk Run_live_partial_idx (lifecycle.ts) instead of every run.
  const expired = `${liveRunPredicate()} AND "status" IN ${sqlList(HELD_RUN_STATUSES)} AND "leaseExpiresAt" < ${d.now}`;
  const candidates = await sql.query<{ id: string; epoch: number; leaseOwner: string | null }>(`SELECT "id", "epoch", "leaseOwner" FROM "Run" WHERE ${expired} LIMIT 100`);
  const reclaimed: ReclaimedRun[] = [];
  for (const run of candidates) {
    const done = await sql.transaction(async (tx) => {
      const [now] = await tx.query<{ at: string }>(`SELECT ${d.nowIso} AS "at"`);
      const note = `${now?.at ?? "now"}: lease of ${run.leaseOwner ?? "a worker"} expired at epoch ${run.epoch}; reclaimed as epoch ${run.epoch + 1}`;
      const changed = await tx.execute(
        `UPDATE "Run" SET "status" = 'queued', "epoch" = "epoch" + 1, "activeTurnId" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "watchdogNote" = ?, "updatedAt" = ${d.now} WHERE "id" = ? AND "epoch" = ? AND ${expired}`,
        [note, run.id, run.epoch],
      );
      if (changed !== 1) return false;
      const claimed = await tx.query<{ id: string; kind: InboxKind; retryCount: number; payload: unknown }>(`SELECT "id", "kind", "retryCount", "payload" FROM "InboxMessage" WHERE "runId" = ? AND "status" = 'claimed'`, [run.id]);
      // The lost turn cannot write its own record any more (its epoch is gone): the watchdog writes it.
      await insertTurnRecord(tx, d, { runId: run.id, epoch: run.epoch, messageId: claimed[0]?.id ?? null, kind: claimed[0]?.kind ?? null, workerId: run.leaseOwner }, { outcome: "lost", reason: `the lease of ${run.leaseOwner ?? "a worker"} expired; the watchdog reclaimed the run` });
      for (const message of claimed) {
        const payload = (d.readJson(message.payload) as Record<string, unknown> | null) ?? {};
        const crashes = (typeof payload.crashes === "number" ? payload.crashes : 0) + 1;
        await tx.execute(`UPDATE "InboxMessage" SET "status" = 'deferred', "retryCount" = "retryCount" + 1, "nextRetryAt" = ${d.later.sql}, "deferReason" = ?, "payload" = ? WHERE "id" = ?`, [
          d.later.param(backoffMs(message.retryCount + 1)),
          `lease of ${run.leaseOwner ?? "a worker"} expired`,
          d.json({ ...payload, crashes }),
          message.id,
        ]);
      }
      return true;
    });
    if (done) reclaimed.push({ runId: run.id, leaseOwner: run.leaseOwner, epoch: run.epoch });
  }
  return reclaimed;
}

/** A pending escalation of a suspended run past its resume deadline, as the watchdog's deadline step needs it. */
export interface OverdueEscalation {
  readonly escalationId: string;
  readonly runId: string;
  /** The database's clock. */
  readonly at: string;
  /** The stored policy (read it with escalationPolicyOf): what the deadline does. */
  readonly policy: unknown;
  /** Whether it was already handed off at a deadline (a hand-off happens once), read in the same statement. */
  readonly handedOffAtDeadline: boolean;
}

/** Watchdog, part 2: pending escalations of suspended runs past their resume deadline by the database's clock. */
export async function overdueEscalations(sql: SqlClient): Promise<OverdueEscalation[]> {
  const d = sql.dialect;
  const rows = await sql.query<{ id: string; runId: string; at: string; policy: unknown; handedOff: unknown }>(
    `SELECT e."id", e."runId", ${d.nowIso} AS "at", e."policy",
       CASE WHEN EXISTS (SELECT 1 FROM "AuditEvent" a WHERE a."action" = ? AND a."target" = 'escalation:' || e."id") THEN 1 ELSE 0 END AS "handedOff"
     FROM "Escalation" e JOIN "Run" r ON r."id" = e."runId" WHERE ${liveRunPredicate("r")} AND r."status" = 'suspended' AND r."resumeDeadline" < ${d.now} AND e."status" = 'pending' LIMIT 100`,
    [HANDOFF_AUDIT_ACTIONS.deadline],
  );
  return rows.map((row) => ({ escalationId: row.id, runId: row.runId, at: row.at, policy: readPolicy(d, row.policy), handedOffAtDeadline: Number(row.handedOff) === 1 }));
}

/** Watchdog, part 3: messages of runs that already ended can never be claimed; they are closed. */
export async function closeMessagesOfEndedRuns(sql: SqlClient): Promise<number> {
  const d = sql.dialect;
  return sql.execute(`UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ${d.now} WHERE "status" IN ('pending','deferred') AND "runId" IN (SELECT "id" FROM "Run" WHERE "status" IN ${sqlList(TERMINAL_RUN_STATUSES)})`);
}

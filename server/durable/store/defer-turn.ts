import type { SqlClient } from "../../persistence/sql/sql-client";
import { LeaseLostError } from "../errors";
import type { ClaimedTurn } from "../types";
import { heldBy, heldByParams } from "./head-update";
import { insertTurnRecord } from "./insert-turn-record";

/**
 * Gives a turn that failed for a retryable reason back to the inbox: the message is deferred
 * with retry_count + 1 (unless `countsAsRetry` is false: a worker shutting down is not the
 * run's failure) and next_retry_at `delayMs` after the database's now; the run is queued and
 * unleased. @throws LeaseLostError when the turn no longer holds a valid lease.
 */
export async function deferTurn(sql: SqlClient, turn: ClaimedTurn, reason: string, delayMs: number, countsAsRetry = true): Promise<void> {
  const d = sql.dialect;
  await sql.transaction(async (tx) => {
    const changed = await tx.execute(`UPDATE "Run" SET "status" = 'queued', "activeTurnId" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${d.now} WHERE ${heldBy(d)}`, heldByParams(turn));
    if (changed !== 1) throw new LeaseLostError(turn.runId, turn.epoch);
    await tx.execute(`UPDATE "InboxMessage" SET "status" = 'deferred', "retryCount" = "retryCount" + ?, "nextRetryAt" = ${d.later.sql}, "deferReason" = ? WHERE "id" = ?`, [
      countsAsRetry ? 1 : 0,
      d.later.param(delayMs),
      reason.slice(0, 2000),
      turn.messageId,
    ]);
    await insertTurnRecord(tx, d, { runId: turn.runId, epoch: turn.epoch, messageId: turn.messageId, kind: turn.kind, workerId: turn.workerId }, { outcome: "deferred", reason });
  });
}

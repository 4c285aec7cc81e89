import type { SqlClient } from "../../persistence/sql/sql-client";
import { timeOrderedId } from "../ids";
import { HELD_RUN_STATUSES, sqlList } from "../lifecycle";
import type { ClaimedTurn } from "../types";
import type { ClaimRequest, ClaimRow } from "./claim-turn";

/**
 * SQLite: the same reads and updates inside one BEGIN IMMEDIATE transaction; SQLite serializes writers.
 * Unlike PostgreSQL's, the claim does not read the run's snapshot: inside the write transaction
 * that read (every artifact's content) would hold every other writer of the file waiting, and
 * measured it saved nothing; the turn reads it afterwards (loadTurn), beside the writers.
 *
 * Like the PostgreSQL claim, its commit need not wait for the disk (at synchronous=FULL it is
 * committed at NORMAL): lost in a crash of the machine, the message is simply due again; and the
 * turn's first durable commit syncs the write-ahead log up to and including the claim before
 * anything depends on it (a model or tool call is made only after one).
 */
export async function claimOnSqlite(sql: SqlClient, request: ClaimRequest): Promise<ClaimedTurn | null> {
  const d = sql.dialect;
  return sql.transactionWithoutWaitingForDisk(async (tx) => {
    const [row] = await tx.query<ClaimRow>(
      // The partial index of claimable messages is already in claim order; named, so the planner
      // never prefers an index that makes it sort every due message.
      `SELECT m."id", m."runId", m."kind", m."payload", m."retryCount", m."deferReason", r."epoch" FROM "InboxMessage" m INDEXED BY "InboxMessage_due_partial_idx" JOIN "Run" r ON r."id" = m."runId"
       WHERE ${request.due} ORDER BY m."nextRetryAt", m."createdAt" LIMIT 1`,
      request.dueParams,
    );
    if (!row) return null;
    if (row.kind === "cancel") {
      // A cancel that takes a held run over ends the turn holding it: that turn's record says so.
      await tx.execute(
        `INSERT INTO "TurnRecord" ("id", "runId", "epoch", "workerId", "outcome", "reason", "endedAt") SELECT ?, "id", "epoch", "leaseOwner", 'lost', 'a cancel took the run over', ${d.now} FROM "Run" WHERE "id" = ? AND "status" IN ${sqlList(HELD_RUN_STATUSES)} ON CONFLICT DO NOTHING`,
        [timeOrderedId(), row.runId],
      );
    }
    const epoch = row.epoch + 1;
    await tx.execute(`UPDATE "Run" SET "status" = 'dispatched', "epoch" = ?, "activeTurnId" = ?, "leaseOwner" = ?, "leaseExpiresAt" = ${d.later.sql}, "updatedAt" = ${d.now} WHERE "id" = ?`, [
      epoch,
      request.turnId,
      request.workerId,
      d.later.param(request.leaseMs),
      row.runId,
    ]);
    await tx.execute(`UPDATE "InboxMessage" SET "status" = 'claimed', "claimedBy" = ?, "claimedAt" = ${d.now}, "epoch" = ? WHERE "id" = ?`, [request.workerId, epoch, row.id]);
    return {
      runId: row.runId,
      epoch,
      turnId: request.turnId,
      messageId: row.id,
      kind: row.kind,
      payload: d.readJson(row.payload) as Record<string, unknown>,
      retryCount: row.retryCount,
      deferReason: row.deferReason,
      workerId: request.workerId,
    };
  });
}

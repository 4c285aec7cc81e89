import type { SqlClient } from "../../persistence/sql/sql-client";
import { timeOrderedId } from "../ids";
import { HELD_RUN_STATUSES, sqlList } from "../lifecycle";
import type { ClaimedTurn } from "../types";
import type { ClaimRequest, ClaimRow } from "./claim-turn";
import { snapshotColumns, snapshotOf, type SnapshotRow } from "./snapshot";

/**
 * PostgreSQL: one statement that picks the message (`FOR UPDATE … SKIP LOCKED`, so concurrent
 * workers pass over each other's candidates), updates the run's head and the message, and reads what
 * the turn needs to replay the run, saving a round trip.
 *
 * Its commit need not wait for the disk: lost in a crash, the message is simply due again; and the
 * turn's first durable commit (a compare-and-swap on this epoch) flushes the log up to and
 * including the claim before anything depends on it.
 */
export async function claimOnPostgres(sql: SqlClient, request: ClaimRequest): Promise<ClaimedTurn | null> {
  const d = sql.dialect;
  const rows = await sql.queryWithoutWaitingForDisk<ClaimRow & SnapshotRow>(
    `WITH next AS (
       SELECT m."id", m."runId" FROM "InboxMessage" m JOIN "Run" r ON r."id" = m."runId"
       WHERE ${request.due} ORDER BY m."nextRetryAt", m."createdAt" LIMIT 1 ${d.skipLocked("m, r")}
     ), head AS (
       UPDATE "Run" r SET "status" = 'dispatched', "epoch" = r."epoch" + 1, "activeTurnId" = ?, "leaseOwner" = ?, "leaseExpiresAt" = ${d.later.sql}, "updatedAt" = ${d.now}
       FROM next WHERE r."id" = next."runId" RETURNING r."id", r."epoch"
     ), taken AS (
       -- A cancel that takes a held run over ends the turn holding it: that turn's record says so.
       INSERT INTO "TurnRecord" ("id", "runId", "epoch", "workerId", "outcome", "reason", "endedAt")
       SELECT ?, r."id", r."epoch", r."leaseOwner", 'lost', 'a cancel took the run over', ${d.now} FROM next JOIN "Run" r ON r."id" = next."runId"
       WHERE r."status" IN ${sqlList(HELD_RUN_STATUSES)} ON CONFLICT DO NOTHING RETURNING 1
     ), claimed AS (
       UPDATE "InboxMessage" m SET "status" = 'claimed', "claimedBy" = ?, "claimedAt" = ${d.now}, "epoch" = head."epoch"
       FROM next, head WHERE m."id" = next."id" RETURNING m."id", m."runId", m."kind", m."payload", m."retryCount", m."deferReason", m."epoch"
     )
     SELECT claimed.*, ${snapshotColumns(d, "r")} FROM claimed JOIN "Run" r ON r."id" = claimed."runId" JOIN "WorkflowVersion" v ON v."id" = r."workflowVersionId"`,
    [...request.dueParams, request.turnId, request.workerId, d.later.param(request.leaseMs), timeOrderedId(), request.workerId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    runId: row.runId,
    epoch: row.epoch,
    turnId: request.turnId,
    messageId: row.id,
    kind: row.kind,
    payload: d.readJson(row.payload) as Record<string, unknown>,
    retryCount: row.retryCount,
    deferReason: row.deferReason,
    workerId: request.workerId,
    snapshot: snapshotOf(d, row.runId, row),
  };
}

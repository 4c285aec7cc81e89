import { randomUUID } from "node:crypto";
import type { SqlClient } from "../../persistence/sql/sql-client";
import { LeaseLostError } from "../errors";
import { isTerminalRunStatus } from "../lifecycle";
import type { ClaimedTurn, TurnBatch } from "../types";
import { headUpdate } from "./head-update";
import { insertLedger } from "./insert-ledger";
import { insertTurnRecord } from "./insert-turn-record";
import { applyReport, closeWaits, insertWaits } from "./tool-waits";

/**
 * The batch in one transaction, the head's compare-and-swap first: every commit on SQLite (BEGIN
 * IMMEDIATE), and on PostgreSQL the rarer ones that start or end waits (see needsTransaction).
 */
export async function commitInTransaction(sql: SqlClient, turn: ClaimedTurn, batch: TurnBatch): Promise<void> {
  const d = sql.dialect;
  await sql.transaction(async (tx) => {
    const update = headUpdate(d, turn, batch.head, batch.end !== undefined);
    const changed = await tx.execute(update.sql, update.params);
    if (changed !== 1) throw new LeaseLostError(turn.runId, turn.epoch);
    await insertLedger(tx, d, turn.runId, turn.epoch, batch.ledger);
    for (const artifact of batch.artifacts) {
      await tx.execute(
        `INSERT INTO "Artifact" ("id", "runId", "stepName", "stepKind", "guardId", "attempt", "parentId", "content", "contentHash", "language", "passed", "fatal", "feedback", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${d.now}) ON CONFLICT DO NOTHING`,
        [artifact.id, turn.runId, artifact.stepName, artifact.stepKind, artifact.guardId, artifact.attempt, artifact.parentId, artifact.content, artifact.contentHash, artifact.language, d.bool(artifact.passed), d.bool(artifact.fatal), artifact.feedback],
      );
      for (const [name, dependencyId] of Object.entries(artifact.dependencyIds)) {
        await tx.execute(`INSERT INTO "ArtifactDependency" ("artifactId", "name", "dependencyId") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [artifact.id, name, dependencyId]);
      }
    }
    const expiresAt = batch.escalationExpiresAfterMs === undefined ? "NULL" : d.later.sql;
    for (const escalation of batch.escalations) {
      await tx.execute(
        `INSERT INTO "Escalation" ("id", "kind", "runId", "artifactId", "stepName", "guardId", "feedback", "status", "decisionKey", "expiresAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ${expiresAt}, ${d.now})`,
        [
          randomUUID(),
          escalation.kind ?? "guard",
          turn.runId,
          escalation.artifactId,
          escalation.stepName,
          escalation.guardId,
          escalation.feedback,
          escalation.decisionKey,
          ...(batch.escalationExpiresAfterMs === undefined ? [] : [d.later.param(batch.escalationExpiresAfterMs)]),
        ],
      );
    }
    if (batch.cancelEscalations) {
      await tx.execute(`UPDATE "Escalation" SET "status" = 'cancelled', "decidedAt" = ${d.now} WHERE "runId" = ? AND "status" = 'pending'`, [turn.runId]);
    }
    if (batch.waits && batch.waits.length > 0) await insertWaits(tx, d, turn.runId, batch.waits);
    if (batch.closeWaits) await closeWaits(tx, d, turn.runId, `its parent run ${turn.runId} ended`);
    if (batch.parentReport) {
      const { parentRunId, callId, result } = batch.parentReport;
      await applyReport(tx, d, { runId: parentRunId, callId, result, status: "reported", reportedBy: `run:${turn.runId}`, fromRunId: turn.runId });
    }
    if (batch.end) {
      if (batch.end.record) await insertTurnRecord(tx, d, { runId: turn.runId, epoch: turn.epoch, messageId: turn.messageId, kind: turn.kind, workerId: turn.workerId }, batch.end.record);
      await tx.execute(`UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ${d.now} WHERE "id" = ?`, [batch.end.messageId]);
      // A run that ended has nothing left to do: later messages (a cancel that came too late) close with it.
      if (batch.head.status && isTerminalRunStatus(batch.head.status)) {
        await tx.execute(`UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ${d.now} WHERE "runId" = ? AND "status" IN ('pending','deferred')`, [turn.runId]);
      }
    }
  });
}

/** Whether a batch needs more than PostgreSQL's one-statement commit: waits, a sub-run's join, a run's end that closes waits. */
export function needsTransaction(batch: TurnBatch): boolean {
  return (batch.waits !== undefined && batch.waits.length > 0) || batch.closeWaits === true || batch.parentReport !== undefined;
}

import { randomUUID } from "node:crypto";
import type { SqlClient, SqlValue } from "../../persistence/sql/sql-client";
import { LeaseLostError } from "../errors";
import { timeOrderedId } from "../ids";
import { isTerminalRunStatus } from "../lifecycle";
import type { ClaimedTurn, TurnBatch } from "../types";
import { headUpdate } from "./head-update";
import { recordReason } from "./insert-turn-record";

/**
 * PostgreSQL: the whole batch as one statement, one round trip, its own transaction. Every
 * insert selects FROM the head update, so when the compare-and-swap matches no row nothing at
 * all is written. Foreign keys are checked at the end of the statement, so an attempt's
 * dependencies and escalation may name the artifact inserted beside them. Only the parts this
 * batch needs are sent: every part costs planning and execution even when empty.
 */
export async function commitOnPostgres(sql: SqlClient, turn: ClaimedTurn, batch: TurnBatch): Promise<void> {
  const d = sql.dialect;
  const head = headUpdate(d, turn, batch.head, batch.end !== undefined);
  const parts: string[] = [`head AS (${head.sql} RETURNING "id")`];
  const params: SqlValue[] = [...head.params];
  if (batch.ledger.length > 0) {
    const ledger = batch.ledger.map((row) => ({ id: timeOrderedId(), seq: row.seq, actor: row.actor, type: row.type, payload: row.payload, callKey: row.callKey }));
    parts.push(`ledger AS (
       INSERT INTO "LedgerEntry" ("id", "runId", "seq", "actor", "type", "payload", "callKey", "epoch", "createdAt")
       SELECT r."id", head."id", r."seq", r."actor", r."type", r."payload", r."callKey", ?::int, ${d.now}
       FROM head, jsonb_to_recordset(?::jsonb) AS r("id" text, "seq" int, "actor" text, "type" text, "payload" jsonb, "callKey" text)
       RETURNING 1)`);
    params.push(turn.epoch, JSON.stringify(ledger));
  }
  if (batch.artifacts.length > 0) {
    const artifacts = batch.artifacts.map(({ dependencyIds: _dependencyIds, ...artifact }) => artifact);
    parts.push(`artifacts AS (
       INSERT INTO "Artifact" ("id", "runId", "stepName", "stepKind", "guardId", "attempt", "parentId", "content", "contentHash", "language", "passed", "fatal", "feedback", "createdAt")
       SELECT a."id", head."id", a."stepName", a."stepKind", a."guardId", a."attempt", a."parentId", a."content", a."contentHash", a."language", a."passed", a."fatal", a."feedback", ${d.now}
       FROM head, jsonb_to_recordset(?::jsonb) AS a("id" text, "stepName" text, "stepKind" text, "guardId" text, "attempt" int, "parentId" text, "content" text, "contentHash" text, "language" text, "passed" boolean, "fatal" boolean, "feedback" text)
       ON CONFLICT DO NOTHING RETURNING 1)`);
    params.push(JSON.stringify(artifacts));
    const dependencies = batch.artifacts.flatMap((artifact) => Object.entries(artifact.dependencyIds).map(([name, dependencyId]) => ({ artifactId: artifact.id, name, dependencyId })));
    if (dependencies.length > 0) {
      parts.push(`dependencies AS (
         INSERT INTO "ArtifactDependency" ("artifactId", "name", "dependencyId")
         SELECT d."artifactId", d."name", d."dependencyId" FROM head, jsonb_to_recordset(?::jsonb) AS d("artifactId" text, "name" text, "dependencyId" text)
         ON CONFLICT DO NOTHING RETURNING 1)`);
      params.push(JSON.stringify(dependencies));
    }
  }
  if (batch.escalations.length > 0) {
    const escalations = batch.escalations.map((escalation) => ({ id: randomUUID(), ...escalation, kind: escalation.kind ?? "guard" }));
    const expiresAt = batch.escalationExpiresAfterMs === undefined ? "NULL::timestamp(3)" : d.later.sql;
    parts.push(`escalations AS (
       INSERT INTO "Escalation" ("id", "kind", "runId", "artifactId", "stepName", "guardId", "feedback", "status", "decisionKey", "expiresAt", "createdAt")
       SELECT e."id", e."kind", head."id", e."artifactId", e."stepName", e."guardId", e."feedback", 'pending', e."decisionKey", ${expiresAt}, ${d.now}
       FROM head, jsonb_to_recordset(?::jsonb) AS e("id" text, "kind" text, "artifactId" text, "stepName" text, "guardId" text, "feedback" text, "decisionKey" text)
       RETURNING 1)`);
    if (batch.escalationExpiresAfterMs !== undefined) params.push(d.later.param(batch.escalationExpiresAfterMs));
    params.push(JSON.stringify(escalations));
  }
  if (batch.cancelEscalations) {
    parts.push(`cancelled AS (UPDATE "Escalation" SET "status" = 'cancelled', "decidedAt" = ${d.now} WHERE "runId" IN (SELECT "id" FROM head) AND "status" = 'pending' RETURNING 1)`);
  }
  if (batch.end) {
    parts.push(`finished AS (UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ${d.now} WHERE "id" = ? AND EXISTS (SELECT 1 FROM head) RETURNING 1)`);
    params.push(batch.end.messageId);
    const record = batch.end.record;
    if (record) {
      parts.push(`turn_record AS (
         INSERT INTO "TurnRecord" ("id", "runId", "epoch", "messageId", "kind", "workerId", "outcome", "reason", "detail", "endedAt")
         SELECT ?, head."id", ?::int, ?, ?::"InboxKind", ?, ?, ?, ?::jsonb, ${d.now} FROM head ON CONFLICT DO NOTHING RETURNING 1)`);
      params.push(timeOrderedId(), turn.epoch, turn.messageId, turn.kind, turn.workerId, record.outcome, recordReason(record.reason), record.detail === undefined ? null : JSON.stringify(record.detail));
    }
    // A run that ended has nothing left to do: later messages (a cancel that came too late) close with it.
    if (batch.head.status !== undefined && isTerminalRunStatus(batch.head.status)) {
      parts.push(`closed AS (UPDATE "InboxMessage" SET "status" = 'done', "doneAt" = ${d.now} WHERE "runId" IN (SELECT "id" FROM head) AND "status" IN ('pending', 'deferred') RETURNING 1)`);
    }
  }
  const rows = await sql.query<{ changed: number }>(`WITH ${parts.join(",\n")}\nSELECT count(*)::int AS "changed" FROM head`, params);
  if (rows[0]?.changed !== 1) throw new LeaseLostError(turn.runId, turn.epoch);
}

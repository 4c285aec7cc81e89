import type { SqlDialect, SqlExecutor } from "../../persistence/sql/sql-client";
import { timeOrderedId } from "../ids";
import type { InboxKind } from "../lifecycle";

/**
 * Writes an inbox message, due now by the database's clock. On PostgreSQL the doorbell's NOTIFY
 * goes out in the same transaction, so it is delivered on commit (003: a wake-up only).
 */
export async function insertMessage(tx: SqlExecutor, d: SqlDialect, runId: string, kind: InboxKind, payload: unknown): Promise<void> {
  if (d.provider === "postgres") await tx.query(`SELECT pg_notify('dualstate_inbox', ?)`, [runId]);
  await tx.execute(`INSERT INTO "InboxMessage" ("id", "runId", "kind", "status", "payload", "nextRetryAt", "createdAt") VALUES (?, ?, ?, 'pending', ?, ${d.now}, ${d.now})`, [
    timeOrderedId(),
    runId,
    kind,
    d.json(payload),
  ]);
}

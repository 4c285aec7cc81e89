import type { SqlDialect, SqlExecutor, SqlValue } from "../../persistence/sql/sql-client";
import { timeOrderedId } from "../ids";
import type { LedgerRow } from "../types";

/** Appends ledger rows of a run, written by the turn of `epoch` (0: before any turn, a fork's seed). */
export async function insertLedger(tx: SqlExecutor, d: SqlDialect, runId: string, epoch: number, rows: readonly LedgerRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values: SqlValue[] = [];
  for (const row of rows) values.push(timeOrderedId(), runId, row.seq, row.actor, row.type, d.json(row.payload), row.callKey, epoch);
  const tuples = rows.map(() => `(?, ?, ?, ?, ?, ?, ?, ?, ${d.now})`).join(", ");
  await tx.execute(`INSERT INTO "LedgerEntry" ("id", "runId", "seq", "actor", "type", "payload", "callKey", "epoch", "createdAt") VALUES ${tuples}`, values);
}

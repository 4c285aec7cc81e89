import type { SqlClient } from "../sql/sql-client";

/**
 * Writes the `LiveCall` row of a run: the text its model call in flight has streamed so far.
 * A preview, not a record: it is overwritten as tokens arrive and deleted when the call's result
 * is in the ledger, so its commits do not wait for the disk (losing one in a crash loses nothing).
 * (The statements return a column because that path runs them as queries on SQLite.)
 * Both statements carry the writing turn's epoch: a turn that lost the run cannot overwrite or
 * delete the row of the turn that took it over.
 */
export class LiveCallWriter {
  constructor(private readonly sql: SqlClient) {}

  async write(runId: string, epoch: number, call: { readonly stepName: string; readonly attempt: number; readonly text: string }, now = new Date()): Promise<void> {
    await this.sql.queryWithoutWaitingForDisk(
      `INSERT INTO "LiveCall" ("runId", "stepName", "attempt", "text", "epoch", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT ("runId") DO UPDATE SET "stepName" = excluded."stepName", "attempt" = excluded."attempt", "text" = excluded."text", "epoch" = excluded."epoch", "updatedAt" = excluded."updatedAt"
       WHERE "LiveCall"."epoch" <= excluded."epoch" RETURNING "runId"`,
      [runId, call.stepName, call.attempt, call.text, epoch, this.sql.dialect.timestamp(now)],
    );
  }

  async clear(runId: string, epoch: number): Promise<void> {
    await this.sql.queryWithoutWaitingForDisk(`DELETE FROM "LiveCall" WHERE "runId" = ? AND "epoch" <= ? RETURNING "runId"`, [runId, epoch]);
  }
}

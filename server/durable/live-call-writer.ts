import type { SqlClient } from "../persistence/sql/sql-client";
import { HELD_RUN_STATUSES, sqlList } from "./lifecycle";

/**
 * Writes the `LiveCall` row of a run: the text its model call in flight has streamed so far.
 * A preview, not a record: it is overwritten as tokens arrive and deleted when the call's result
 * is in the ledger, so its commits do not wait for the disk (losing one in a crash loses nothing).
 * (The statements return a column because that path runs them as queries on SQLite.)
 *
 * A write lands only while the writing turn holds the run with a valid lease (its epoch is the
 * run's, the run is held, the lease not expired by the database's clock): a turn that lost the
 * run, or a run that finished, gets no preview row. Both statements carry the turn's epoch, so a
 * turn that lost the run cannot delete the row of the turn that took it over either.
 */
export class LiveCallWriter {
  constructor(private readonly sql: SqlClient) {}

  async write(runId: string, epoch: number, call: { readonly stepName: string; readonly attempt: number; readonly text: string }): Promise<void> {
    const d = this.sql.dialect;
    await this.sql.queryWithoutWaitingForDisk(
      `INSERT INTO "LiveCall" ("runId", "stepName", "attempt", "text", "epoch", "updatedAt")
       SELECT r."id", ?, ?, ?, r."epoch", ${d.now} FROM "Run" r
       WHERE r."id" = ? AND r."epoch" = ? AND r."status" IN ${sqlList(HELD_RUN_STATUSES)} AND r."leaseExpiresAt" > ${d.now}
       ON CONFLICT ("runId") DO UPDATE SET "stepName" = excluded."stepName", "attempt" = excluded."attempt", "text" = excluded."text", "epoch" = excluded."epoch", "updatedAt" = excluded."updatedAt"
       WHERE "LiveCall"."epoch" <= excluded."epoch" RETURNING "runId"`,
      [call.stepName, call.attempt, call.text, runId, epoch],
    );
  }

  async clear(runId: string, epoch: number): Promise<void> {
    await this.sql.queryWithoutWaitingForDisk(`DELETE FROM "LiveCall" WHERE "runId" = ? AND "epoch" <= ? RETURNING "runId"`, [runId, epoch]);
  }
}

import type { SqlRunStore } from "../persistence/run-store/sql-run-store";

/**
 * The runs among `runIds` that have a cancel message waiting. A running turn holds its worker's
 * slot until it ends, so a cancel must reach the turn itself: the worker asks this about its
 * running turns every fraction of a second and stops the ones that are cancelled.
 */
export async function runsWithPendingCancel(store: SqlRunStore, runIds: readonly string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const rows = await store.sql.query<{ runId: string }>(
    `SELECT DISTINCT "runId" FROM "InboxMessage" WHERE "kind" = 'cancel' AND "status" IN ('pending', 'deferred') AND "runId" IN (${runIds.map(() => "?").join(", ")})`,
    [...runIds],
  );
  return new Set(rows.map((row) => row.runId));
}

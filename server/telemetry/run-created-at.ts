import type { SqlClient } from "../persistence/sql/sql-client";

/**
 * When a run was created, in milliseconds since the epoch, computed by the database from the
 * stored UTC timestamp (so no driver or process time zone gets a say).
 */
export function runCreatedAtFrom(sql: SqlClient): (runId: string) => Promise<number | undefined> {
  const statement =
    sql.dialect.provider === "postgres"
      ? `SELECT (EXTRACT(EPOCH FROM "createdAt") * 1000)::float8 AS "ms" FROM "Run" WHERE "id" = ?`
      : `SELECT CASE WHEN typeof("createdAt") = 'integer' THEN "createdAt" ELSE (julianday("createdAt") - 2440587.5) * 86400000.0 END AS "ms" FROM "Run" WHERE "id" = ?`;
  return async (runId) => {
    const [row] = await sql.query<{ ms: unknown }>(statement, [runId]);
    const ms = Number(row?.ms);
    return row && Number.isFinite(ms) ? Math.round(ms) : undefined;
  };
}

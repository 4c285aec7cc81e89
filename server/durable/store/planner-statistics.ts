import type { SqlClient } from "../../persistence/sql/sql-client";

/**
 * PostgreSQL plans the claim from table statistics. Tables never analysed (a fresh database,
 * before autovacuum's first pass) look empty to the planner, which then sorts every due message
 * on each claim instead of walking the due index: a cost that grows with the queue. A worker
 * gathers them once when it starts.
 */
export async function ensurePlannerStatistics(sql: SqlClient): Promise<void> {
  if (sql.dialect.provider !== "postgres") return;
  const stale = await sql.query<{ relname: string }>(`SELECT "relname" FROM pg_stat_user_tables WHERE "relname" IN ('InboxMessage', 'Run') AND "last_analyze" IS NULL AND "last_autoanalyze" IS NULL`);
  for (const { relname } of stale) await sql.execute(`ANALYZE "${relname}"`);
}

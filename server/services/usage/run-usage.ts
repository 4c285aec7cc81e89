import type { Db } from "@/server/persistence/db";
import { summariseCallUsage, type UsageSummary } from "@/server/usage/usage-by-attempt";
import { durableStoreFor } from "../durable-store-for";

/**
 * The usage and cost of each model call a run recorded, summed by step and attempt. Only the
 * `usage` and `cost.usd` of each result are read (in SQL), never the replies themselves, so the
 * run page can ask every second. A fork's seeded results (epoch 0) are the original run's calls:
 * reused, not paid for again, so they count here no more than in the run's totals.
 */
export async function readRunUsage(db: Db, runId: string): Promise<UsageSummary> {
  const sql = durableStoreFor(db).sql;
  const d = sql.dialect;
  const columns =
    d.provider === "postgres"
      ? `"callKey", "payload"->'usage' AS "usage", ("payload"->'cost'->>'usd')::float8 AS "usd"`
      : `"callKey", json_extract("payload", '$.usage') AS "usage", json_extract("payload", '$.cost.usd') AS "usd"`;
  const rows = await sql.query<{ callKey: string | null; usage: unknown; usd: unknown }>(`SELECT ${columns} FROM "LedgerEntry" WHERE "runId" = ? AND "type" = 'action_result' AND "epoch" > 0 ORDER BY "seq"`, [runId]);
  // Tool results are action results too; only model calls record usage.
  return summariseCallUsage(rows.filter((row) => row.usage !== null).map((row) => ({ callKey: row.callKey, usage: row.usage === null ? null : d.readJson(row.usage), usd: row.usd === null ? null : Number(row.usd) })));
}

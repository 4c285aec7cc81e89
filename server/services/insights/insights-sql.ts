import type { Db } from "@/server/persistence/db";
import { postgresDialect } from "@/server/persistence/sql/postgres-client";
import { sqliteDialect } from "@/server/persistence/sql/sqlite-client";
import { BUCKET_KEY_LENGTH, type BucketUnit } from "./time-window";

type Param = string | number;

/**
 * The few SQL pieces the Metrics page's aggregates write differently on SQLite and PostgreSQL.
 * Statements mark parameters with `?` (numbered for PostgreSQL here) and never hold a literal question mark.
 */
export interface InsightsSql {
  readonly provider: "sqlite" | "postgres";
  /** An expression naming the UTC hour or day of a timestamp column as time-window.ts names buckets. */
  bucket(column: string, unit: BucketUnit): string;
  /** The parameter marker for a timestamp compared with a column, and the value to bind to it. */
  time(date: Date): { sql: string; value: Param };
  /** Milliseconds between two timestamp columns, as a floating-point number. */
  millisBetween(from: string, to: string): string;
  query<T>(sql: string, params: readonly Param[]): Promise<T[]>;
}

export function insightsSqlFor(db: Db): InsightsSql {
  const postgres = (db as { _activeProvider?: string })._activeProvider === "postgresql";
  const query = <T>(sql: string, params: readonly Param[]) => {
    let index = 0;
    const text = postgres ? sql.replace(/\?/g, () => `$${++index}`) : sql;
    return db.$queryRawUnsafe<T[]>(text, ...params);
  };
  if (postgres) {
    return {
      provider: "postgres",
      bucket: (column, unit) => `to_char(${column}, '${unit === "hour" ? 'YYYY-MM-DD"T"HH24' : "YYYY-MM-DD"}')`,
      time: (date) => ({ sql: "CAST(? AS TIMESTAMP(3))", value: postgresDialect.timestamp(date) }),
      millisBetween: (from, to) => `CAST(EXTRACT(EPOCH FROM (${to} - ${from})) * 1000 AS DOUBLE PRECISION)`,
      query,
    };
  }
  return {
    provider: "sqlite",
    // Stored as ISO 8601 text in UTC ("2026-11-26T09:13:33.123+00:00"): the bucket is its first characters.
    bucket: (column, unit) => `substr(${column}, 1, ${BUCKET_KEY_LENGTH[unit]})`,
    time: (date) => ({ sql: "?", value: sqliteDialect.timestamp(date) }),
    millisBetween: (from, to) => `((julianday(${to}) - julianday(${from})) * 86400000.0)`,
    query,
  };
}

import { DUE_INBOX_STATUSES, sqlList } from "../../durable/lifecycle";
import { databaseUrlOf, type Db } from "../../persistence/db";
import { parseDatabaseUrl } from "../../persistence/database-url";
import { postgresDialect } from "../../persistence/sql/postgres-client";
import { sqliteDialect } from "../../persistence/sql/sqlite-client";

export interface InboxGauges {
  readonly due: number;
  readonly scheduled: number;
  /** Seconds the longest-waiting due message has been due; 0 when none is. */
  readonly oldestDueSeconds: number;
}

/**
 * The inbox's waiting messages in one statement over the partial index of due-status messages
 * (its predicate is a literal list, so the statement spells it out rather than binding it), with
 * "due" decided by the database's clock as the claim decides it.
 */
export async function inboxGauges(db: Db): Promise<InboxGauges> {
  const url = databaseUrlOf(db);
  const postgres = url !== undefined && parseDatabaseUrl(url).provider === "postgres";
  const now = postgres ? postgresDialect.now : sqliteDialect.now;
  const age = postgres ? `EXTRACT(EPOCH FROM (${now} - MIN(CASE WHEN "nextRetryAt" <= ${now} THEN "nextRetryAt" END)))::float8` : `(julianday('now') - julianday(MIN(CASE WHEN "nextRetryAt" <= ${now} THEN "nextRetryAt" END))) * 86400.0`;
  const [row] = await db.$queryRawUnsafe<{ due: unknown; scheduled: unknown; age: unknown }[]>(
    `SELECT COUNT(CASE WHEN "nextRetryAt" <= ${now} THEN 1 END) AS "due", COUNT(CASE WHEN "nextRetryAt" > ${now} THEN 1 END) AS "scheduled", ${age} AS "age"
     FROM "InboxMessage" WHERE "status" IN ${sqlList(DUE_INBOX_STATUSES)}`,
  );
  const number = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));
  return { due: number(row?.due), scheduled: number(row?.scheduled), oldestDueSeconds: Math.max(0, number(row?.age)) };
}

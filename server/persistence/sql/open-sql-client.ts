import { parseDatabaseUrl } from "../database-url";
import { createPostgresClient } from "./postgres-client";
import { createSqliteClient, type SqliteSynchronous } from "./sqlite-client";
import type { SqlClient } from "./sql-client";

export interface OpenSqlOptions {
  readonly sqliteSynchronous?: SqliteSynchronous;
  readonly maxConnections?: number;
}

/** The run engine's connection to DATABASE_URL (file: → SQLite, postgres(ql):// → PostgreSQL). */
export function openSqlClient(databaseUrl: string, options: OpenSqlOptions = {}): SqlClient {
  const target = parseDatabaseUrl(databaseUrl);
  return target.provider === "postgres"
    ? createPostgresClient(target.location, { maxConnections: options.maxConnections })
    : createSqliteClient(target.location, { synchronous: options.sqliteSynchronous });
}

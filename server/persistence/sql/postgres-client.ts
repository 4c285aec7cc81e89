import pg from "pg";
import type { SqlClient, SqlDialect, SqlExecutor, SqlRow, SqlValue } from "./sql-client";

export const postgresDialect: SqlDialect = {
  provider: "postgres",
  // timestamp(3) without time zone holding UTC, as Prisma writes it.
  timestamp: (date) => date.toISOString().replace("T", " ").replace("Z", ""),
  json: (value) => JSON.stringify(value),
  readJson: (value) => value,
  bool: (value) => value,
  skipLocked: (tables) => `FOR UPDATE OF ${tables} SKIP LOCKED`,
  // The statement's start on the server's clock, as UTC without time zone (the columns' form).
  now: `(statement_timestamp() AT TIME ZONE 'UTC')::timestamp(3)`,
  nowIso: `to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  later: { sql: `((statement_timestamp() AT TIME ZONE 'UTC') + ?::float8 * interval '1 millisecond')::timestamp(3)`, param: (ms) => ms },
};

/** `?` placeholders become `$1, $2…` (the statements never contain a literal question mark). */
const numbered = new Map<string, string>();
function toPostgres(sql: string): string {
  let converted = numbered.get(sql);
  if (converted === undefined) {
    let index = 0;
    converted = sql.replace(/\?/g, () => `$${++index}`);
    numbered.set(sql, converted);
  }
  return converted;
}

/**
 * Each distinct statement is a named prepared statement, parsed and planned once per
 * connection instead of on every call (the run engine sends the same few statements all day).
 */
const statementNames = new Map<string, string>();
function prepared(sql: string, params: readonly SqlValue[]): pg.QueryConfig {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `dualstate_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return { name, text: toPostgres(sql), values: params as SqlValue[] };
}

function executorOf(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    async query<T extends SqlRow>(sql: string, params: readonly SqlValue[] = []) {
      return (await client.query<T>(prepared(sql, params))).rows;
    },
    async execute(sql, params = []) {
      return (await client.query(prepared(sql, params))).rowCount ?? 0;
    },
  };
}

export interface PostgresClientOptions {
  readonly maxConnections?: number;
}

/**
 * PostgreSQL through a pg pool. A dropped connection (a restarted server) surfaces as an error
 * on the statement in flight; the pool opens fresh connections for the next ones.
 */
export function createPostgresClient(connectionString: string, options: PostgresClientOptions = {}): SqlClient {
  const pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 4, allowExitOnIdle: true });
  // An idle connection killed by the server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // A connection of its own for asynchronous commits, opened on first use.
  let asyncCommitPool: pg.Pool | undefined;
  const asyncCommit = () => {
    if (!asyncCommitPool) {
      asyncCommitPool = new pg.Pool({ connectionString, max: 1, options: "-c synchronous_commit=off" });
      asyncCommitPool.on("error", () => {});
    }
    return asyncCommitPool;
  };
  return {
    ...executorOf(pool),
    queryWithoutWaitingForDisk: (sql, params) => executorOf(asyncCommit()).query(sql, params),
    dialect: postgresDialect,
    transaction: (work) => inTransaction(work, false),
    transactionWithoutWaitingForDisk: (work) => inTransaction(work, true),
    async close() {
      await Promise.all([pool.end(), asyncCommitPool?.end()]);
    },
  };

  async function inTransaction<T>(work: (tx: SqlExecutor) => Promise<T>, withoutWaitingForDisk: boolean): Promise<T> {
    const connection = await pool.connect();
    // A checked-out client whose server goes away emits "error"; unheard, that ends the
    // process. The statement in flight rejects with the same error, which is what we report.
    const ignore = () => {};
    connection.on("error", ignore);
    let failed = false;
    try {
      await connection.query("BEGIN");
      // For this transaction only; the connection goes back to the pool as it was.
      if (withoutWaitingForDisk) await connection.query("SET LOCAL synchronous_commit = off");
      const result = await work(executorOf(connection));
      await connection.query("COMMIT");
      return result;
    } catch (error) {
      failed = true;
      await connection.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      connection.off("error", ignore);
      // After a failure the connection may be dead (a restarted server): never reuse it.
      connection.release(failed);
    }
  }
}

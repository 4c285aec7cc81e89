import Database from "better-sqlite3";
import type { SqlClient, SqlDialect, SqlExecutor, SqlRow, SqlValue } from "./sql-client";

export const sqliteDialect: SqlDialect = {
  provider: "sqlite",
  // Prisma's SQLite adapter stores ISO 8601 with an explicit offset; comparing as text needs the same form.
  timestamp: (date) => date.toISOString().replace("Z", "+00:00"),
  json: (value) => JSON.stringify(value),
  readJson: (value) => (typeof value === "string" ? JSON.parse(value) : value),
  bool: (value) => (value ? 1 : 0),
  skipLocked: () => "",
  // The stored form above, from SQLite's own clock (one value per statement).
  now: `strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')`,
  nowIso: `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
  later: { sql: `strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', ?)`, param: (ms) => `${ms < 0 ? "-" : "+"}${(Math.abs(ms) / 1000).toFixed(3)} seconds` },
};

export type SqliteSynchronous = "FULL" | "NORMAL";

export interface SqliteClientOptions {
  /** better-sqlite3 runs WAL at NORMAL unless told; durability is a choice made here, explicitly. */
  readonly synchronous?: SqliteSynchronous;
  readonly busyTimeoutMs?: number;
}

/**
 * SQLite through better-sqlite3: synchronous calls behind the async interface, statements cached.
 * One connection per client; transactions are serialized by SQLite's write lock across processes.
 */
export function createSqliteClient(file: string, options: SqliteClientOptions = {}): SqlClient {
  const db = new Database(file);
  const synchronous = options.synchronous ?? "FULL";
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
  db.pragma("foreign_keys = ON");
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const executor: SqlExecutor = {
    async query<T extends SqlRow>(sql: string, params: readonly SqlValue[] = []) {
      return prepare(sql).all(...(params as SqlValue[])) as T[];
    },
    async execute(sql, params = []) {
      return prepare(sql).run(...(params as SqlValue[])).changes;
    },
  };
  // One connection shared by every task of the process: while a transaction is open across
  // awaits, other tasks' statements wait for it instead of landing inside it.
  let lock: Promise<void> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lock.then(work);
    lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
  const inTransaction = async <T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> => {
    prepare("BEGIN IMMEDIATE").run();
    try {
      const result = await work(executor);
      prepare("COMMIT").run();
      return result;
    } catch (error) {
      if (db.inTransaction) prepare("ROLLBACK").run();
      throw error;
    }
  };
  return {
    query: (sql, params) => exclusive(() => executor.query(sql, params)),
    execute: (sql, params) => exclusive(() => executor.execute(sql, params)),
    queryWithoutWaitingForDisk: (sql, params) => exclusive(() => executor.query(sql, params)),
    dialect: sqliteDialect,
    transaction: (work) => exclusive(() => inTransaction(work)),
    transactionWithoutWaitingForDisk(work) {
      if (synchronous !== "FULL") return exclusive(() => inTransaction(work));
      // In WAL mode a commit at NORMAL appends its frames without syncing the log; the next commit
      // at FULL syncs the whole log, these frames included, and a checkpoint syncs before copying.
      return exclusive(async () => {
        prepare("PRAGMA synchronous = NORMAL").run();
        try {
          return await inTransaction(work);
        } finally {
          prepare("PRAGMA synchronous = FULL").run();
        }
      });
    },
    async close() {
      db.close();
    },
  };
}

/**
 * A thin SQL connection for the run engine's hot path (claims, turn commits, the watchdog).
 * Prisma serves the dashboard; here every statement is prepared once and sent as is, because
 * per-query overhead would dominate a transition (issue 6's targets are ~100 µs).
 *
 * Statements are written once with `?` placeholders and quoted identifiers; the dialect turns
 * them into `$1…` for PostgreSQL and formats the values SQLite and PostgreSQL store differently.
 */
export type SqlValue = string | number | boolean | null;
export type SqlRow = Record<string, unknown>;

export interface SqlExecutor {
  query<T extends SqlRow = SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Rows changed by an INSERT/UPDATE/DELETE. */
  execute(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface SqlDialect {
  readonly provider: "sqlite" | "postgres";
  /** A timestamp as the column stores it (Prisma's format on each database). */
  timestamp(date: Date): string;
  json(value: unknown): string;
  readJson(value: unknown): unknown;
  bool(value: boolean): SqlValue;
  /** `FOR UPDATE … SKIP LOCKED` on PostgreSQL; SQLite serializes writers instead. */
  readonly skipLocked: (tables: string) => string;
  /**
   * The database's clock as an SQL expression of the stored timestamp type. Expiries and deadlines
   * are computed and compared with it in the statement that uses them, so no process's own clock
   * (which may run ahead) decides whether a lease or a deadline has passed.
   */
  readonly now: string;
  /** The database's clock as ISO 8601 text (`…Z`), for notes that say when something happened. */
  readonly nowIso: string;
  /** The database's clock plus a duration: an SQL expression with one `?`, bound to `later.param(ms)`. */
  readonly later: { readonly sql: string; param(ms: number): SqlValue };
}

export interface SqlClient extends SqlExecutor {
  readonly dialect: SqlDialect;
  /**
   * One statement in its own transaction whose commit does not wait for the disk (PostgreSQL's
   * synchronous_commit=off; SQLite runs it as `query`). Only for writes whose loss in a server
   * crash is harmless because they are recoverable: a later durable commit on the same server
   * flushes the log up to and including them, and one that never comes leaves nothing behind.
   */
  queryWithoutWaitingForDisk<T extends SqlRow = SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs `work` in one write transaction (BEGIN IMMEDIATE on SQLite); rolls back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * `transaction`, with a commit that does not wait for the disk (PostgreSQL's
   * synchronous_commit=off for this transaction; SQLite at synchronous=FULL commits it at NORMAL).
   * The same rule as queryWithoutWaitingForDisk: only for writes a later durable commit on the
   * same database makes durable too (both logs are flushed in order, up to and including them),
   * and whose loss without one is harmless.
   */
  transactionWithoutWaitingForDisk<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

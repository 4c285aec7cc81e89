import { performance } from "node:perf_hooks";
import type { SqlClient, SqlExecutor, SqlRow, SqlValue } from "../../server/persistence/sql/sql-client";

/** Calls and milliseconds of one kind of statement. */
export interface StatementTime {
  calls: number;
  ms: number;
}

/** Time spent per kind of statement, by label (see `labelOf`). */
export type StatementTimes = Map<string, StatementTime>;

/**
 * A short name for a statement: its verb and table, or for a `WITH` statement (the PostgreSQL
 * claim and commit) the names of its parts, so the profile says which parts a commit carried.
 */
export function labelOf(sql: string): string {
  let label = labels.get(sql);
  if (label === undefined) {
    label = labelOfText(sql);
    labels.set(sql, label);
  }
  return label;
}

/** Labels by statement text: the engine sends the same few statements, and the metering must not cost more than they do. */
const labels = new Map<string, string>();

function labelOfText(sql: string): string {
  const text = sql.replace(/\s+/g, " ").trim();
  if (text.startsWith("WITH ")) {
    const parts = [...text.matchAll(/(?:WITH|,) (\w+) AS \(/g)].map((match) => match[1]);
    return `WITH ${parts.join("+")}`;
  }
  const verb = /^(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b/i.exec(text)?.[1]?.toUpperCase() ?? text.split(" ")[0] ?? "";
  const table = /(?:FROM|INTO|UPDATE) "(\w+)"/.exec(text)?.[1];
  return table ? `${verb} ${table}` : text.slice(0, 40);
}

function add(times: StatementTimes, label: string, ms: number): void {
  const entry = times.get(label);
  if (entry) {
    entry.calls++;
    entry.ms += ms;
  } else {
    times.set(label, { calls: 1, ms });
  }
}

/**
 * `client`, timing every statement it runs (performance.now around each call, nothing else).
 * A transaction's own cost (BEGIN, COMMIT and waiting for the connection, which on SQLite is
 * where the write-ahead log is written and synced) is its time minus its statements'.
 * `times` is read and reset by the caller between phases.
 */
export function meteredSql(client: SqlClient, times: StatementTimes): SqlClient {
  const timed = <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    return work().finally(() => add(times, label, performance.now() - started));
  };
  const meterExecutor = (executor: SqlExecutor, inner?: { ms: number }): SqlExecutor => ({
    query: <T extends SqlRow>(sql: string, params?: readonly SqlValue[]) => timedInner(labelOf(sql), () => executor.query<T>(sql, params), inner),
    execute: (sql, params) => timedInner(labelOf(sql), () => executor.execute(sql, params), inner),
  });
  const timedInner = <T>(label: string, work: () => Promise<T>, inner?: { ms: number }): Promise<T> => {
    const started = performance.now();
    return work().finally(() => {
      const ms = performance.now() - started;
      add(times, label, ms);
      if (inner) inner.ms += ms;
    });
  };
  const meteredTransaction = async <T>(label: string, run: (inner: { ms: number }) => Promise<T>): Promise<T> => {
    const inner = { ms: 0 };
    const started = performance.now();
    try {
      return await run(inner);
    } finally {
      add(times, label, performance.now() - started - inner.ms);
    }
  };
  return {
    ...meterExecutor(client),
    dialect: client.dialect,
    queryWithoutWaitingForDisk: (sql, params) => timed(`${labelOf(sql)} (no disk wait)`, () => client.queryWithoutWaitingForDisk(sql, params)),
    transaction: (work) => meteredTransaction("transaction: BEGIN + COMMIT + wait", (inner) => client.transaction((tx) => work(meterExecutor(tx, inner)))),
    transactionWithoutWaitingForDisk: (work) =>
      meteredTransaction("transaction (no disk wait): BEGIN + COMMIT + wait", (inner) => client.transactionWithoutWaitingForDisk((tx) => work(meterExecutor(tx, inner)))),
    close: () => client.close(),
  };
}

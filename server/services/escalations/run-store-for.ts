import { getEnv } from "@/server/env";
import type { Db } from "@/server/persistence/db";
import { SqlRunStore } from "@/server/persistence/run-store/sql-run-store";
import { openSqlClient } from "@/server/persistence/sql/open-sql-client";
import { ringLocalDoorbell } from "@/server/worker/doorbell";

// Decisions go through the run store (one transaction: decision, ledger row, resume message, with
// exactly one winner). The web process opens one store for DATABASE_URL; tests pair a store with
// the Prisma client of their own database.
const paired = new WeakMap<Db, SqlRunStore>();
const globalForStore = globalThis as unknown as { dualstateDecisionStore?: SqlRunStore };

/** Makes `store` the one decisions made through `db` use (tests, the CLI). */
export function pairRunStore(db: Db, store: SqlRunStore): void {
  paired.set(db, store);
}

/** The run store over the same database as `db`. */
export function runStoreFor(db: Db): SqlRunStore {
  const store = paired.get(db);
  if (store) return store;
  if (!globalForStore.dualstateDecisionStore) {
    const env = getEnv();
    const opened = new SqlRunStore(openSqlClient(env.DATABASE_URL, { sqliteSynchronous: env.DUALSTATE_SQLITE_SYNCHRONOUS, maxConnections: 4 }));
    // The embedded worker (same process, or the CLI parent over IPC) wakes at once; PostgreSQL workers get NOTIFY from the transaction.
    opened.onMessage = ringLocalDoorbell;
    globalForStore.dualstateDecisionStore = opened;
  }
  return globalForStore.dualstateDecisionStore;
}

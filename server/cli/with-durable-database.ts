import type { Env } from "../env";
import { DurableStore } from "../durable/durable-store";
import { createDb, type Db } from "../persistence/db";
import { migrateDatabase } from "../persistence/migrations/migrate";
import { openSqlClient } from "../persistence/sql/open-sql-client";
import { pairDurableStore } from "../services/durable-store-for";

/**
 * The database, migrated, with a durable store paired to it, so a command's writes (decisions,
 * reports) take the same one-transaction path as the web app's; both are closed afterwards.
 */
export async function withDurableDatabase<T>(env: Env, work: (db: Db) => Promise<T>): Promise<T> {
  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  const store = new DurableStore(openSqlClient(env.DATABASE_URL, { sqliteSynchronous: env.DUALSTATE_SQLITE_SYNCHRONOUS, maxConnections: 2 }));
  pairDurableStore(db, store);
  try {
    return await work(db);
  } finally {
    await store.close();
    await db.$disconnect();
  }
}

import { getEnv } from "@/server/env";
import { durableStoreForUrl, type DurableStore } from "@/server/durable";
import { databaseUrlOf, type Db } from "@/server/persistence/db";

// Services read with Prisma but write a run's rows (runs, inbox messages, decisions) only through
// the durable store, over the same database as their Prisma client.
const paired = new WeakMap<Db, DurableStore>();

/** Makes `store` the one services using `db` write through (the CLI, which closes it itself). */
export function pairDurableStore(db: Db, store: DurableStore): void {
  paired.set(db, store);
}

/** The durable store over the same database as `db`. */
export function durableStoreFor(db: Db): DurableStore {
  const store = paired.get(db);
  if (store) return store;
  const env = getEnv();
  return durableStoreForUrl(databaseUrlOf(db) ?? env.DATABASE_URL, { sqliteSynchronous: env.DUALSTATE_SQLITE_SYNCHRONOUS });
}

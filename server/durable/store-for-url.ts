import { openSqlClient, type OpenSqlOptions } from "../persistence/sql/open-sql-client";
import { ringLocalDoorbell } from "./doorbell";
import { DurableStore } from "./durable-store";

// One store per database for the process's services (web app, CLI), kept on globalThis so
// Next.js's separately bundled server code shares it.
const globalForStores = globalThis as unknown as { dualstateDurableStores?: Map<string, DurableStore> };

function stores(): Map<string, DurableStore> {
  globalForStores.dualstateDurableStores ??= new Map();
  return globalForStores.dualstateDurableStores;
}

/**
 * The durable store services write a run's rows through, for the database at `databaseUrl`.
 * Its messages ring this process's doorbell (the embedded worker, or the CLI parent over IPC);
 * PostgreSQL workers elsewhere get the NOTIFY sent in the message's transaction.
 */
export function durableStoreForUrl(databaseUrl: string, options: OpenSqlOptions = {}): DurableStore {
  let store = stores().get(databaseUrl);
  if (!store) {
    store = new DurableStore(openSqlClient(databaseUrl, { maxConnections: 4, ...options }));
    store.onMessage = ringLocalDoorbell;
    stores().set(databaseUrl, store);
  }
  return store;
}

/** Closes the store of `databaseUrl`, if one was opened (a test's database being dropped). */
export async function closeDurableStoreForUrl(databaseUrl: string): Promise<void> {
  const store = stores().get(databaseUrl);
  stores().delete(databaseUrl);
  await store?.close();
}

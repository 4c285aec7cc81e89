/**
 * Prisma clients for both databases. Application code is typed against the SQLite client
 * (the smaller set of input types); the PostgreSQL client has identical models and is cast.
 * Two generated clients are needed because a client only accepts its own provider's adapter.
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqlitePrismaClient } from "../../prisma/generated/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "../../prisma/generated/postgres/client";
import { getEnv } from "../env";
import { parseDatabaseUrl } from "./database-url";

export type Db = SqlitePrismaClient;
export type { Prisma } from "../../prisma/generated/sqlite/client";

// The URL each client was opened for: services write a run's rows through the durable store of
// the same database (server/services/durable-store-for.ts).
const urls = new WeakMap<Db, string>();

/** Opens a client for a database URL; it does not migrate (see migrations/migrate.ts). */
export function createDb(databaseUrl: string): Db {
  const target = parseDatabaseUrl(databaseUrl);
  const db =
    target.provider === "postgres"
      ? (new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: target.location }) }) as unknown as Db)
      : // A generous busy timeout: the web server and workers share the file and take turns writing.
        new SqlitePrismaClient({ adapter: new PrismaBetterSQLite3({ url: target.location, timeout: 10_000 }) });
  urls.set(db, databaseUrl);
  return db;
}

/** The URL `db` was opened for by createDb. */
export function databaseUrlOf(db: Db): string | undefined {
  return urls.get(db);
}

const globalForDb = globalThis as unknown as { dualstateDb?: Db };

/** The process-wide client for DATABASE_URL (kept on globalThis so dev reloads reuse it). */
export function getDb(): Db {
  globalForDb.dualstateDb ??= createDb(getEnv().DATABASE_URL);
  return globalForDb.dualstateDb;
}

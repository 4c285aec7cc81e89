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

/** Opens a client for a database URL; it does not migrate (see migrations/migrate.ts). */
export function createDb(databaseUrl: string): Db {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.provider === "postgres") {
    const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: target.location }) });
    return client as unknown as Db;
  }
  // A generous busy timeout: the web server and workers share the file and take turns writing.
  return new SqlitePrismaClient({ adapter: new PrismaBetterSQLite3({ url: target.location, timeout: 10_000 }) });
}

const globalForDb = globalThis as unknown as { dualstateDb?: Db };

/** The process-wide client for DATABASE_URL (kept on globalThis so dev reloads reuse it). */
export function getDb(): Db {
  globalForDb.dualstateDb ??= createDb(getEnv().DATABASE_URL);
  return globalForDb.dualstateDb;
}

import { parseDatabaseUrl } from "../database-url";
import { readMigrationFiles } from "./migration-files";
import { migratePostgres } from "./migrate-postgres";
import { migrateSqlite } from "./migrate-sqlite";

export { MigrationError } from "./plan-migrations";

/**
 * Brings the database at `databaseUrl` up to date with prisma/migrations/<provider>, creating
 * the SQLite file when missing. Every entry point calls it; it is a no-op when nothing is pending.
 * Returns the names of the migrations it applied.
 */
export async function migrateDatabase(databaseUrl: string): Promise<string[]> {
  const target = parseDatabaseUrl(databaseUrl);
  const files = readMigrationFiles(target.provider);
  return target.provider === "postgres"
    ? migratePostgres(target.location, files)
    : migrateSqlite(target.location, files);
}

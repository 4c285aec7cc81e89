import pg from "pg";
import type { MigrationFile } from "./migration-files";
import { MigrationError, planMigrations, type AppliedMigration } from "./plan-migrations";

// Any constant works; it only has to be the same for every Dualstate process.
const MIGRATION_LOCK_KEY = 4_242_001;

const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_dualstate_migrations" (
  "name" TEXT NOT NULL PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now())`;

/**
 * Applies pending migrations in one transaction under an advisory lock, so that several
 * workers starting at once migrate exactly once.
 */
export async function migratePostgres(connectionString: string, files: readonly MigrationFile[]): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
  } catch (error) {
    // The first contact of every command with the database: say which one, never its password.
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Cannot connect to the PostgreSQL database ${serverOf(connectionString)}: ${reason}`);
  }
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query("BEGIN");
    try {
      await client.query(HISTORY_TABLE);
      const { rows } = await client.query<AppliedMigration>(`SELECT "name", "checksum" FROM "_dualstate_migrations"`);
      const pending = planMigrations(files, rows);
      for (const file of pending) {
        await client.query(file.sql);
        await client.query(`INSERT INTO "_dualstate_migrations" ("name", "checksum") VALUES ($1, $2)`, [
          file.name,
          file.checksum,
        ]);
      }
      await client.query("COMMIT");
      return pending.map((file) => file.name);
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  } finally {
    await client.end();
  }
}

/** host:port/database of a connection string, without user or password. */
function serverOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "(unparsable address)";
  }
}

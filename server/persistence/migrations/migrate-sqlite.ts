import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { MigrationFile } from "./migration-files";
import { planMigrations, type AppliedMigration } from "./plan-migrations";

const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_dualstate_migrations" (
  "name" TEXT NOT NULL PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`;

/**
 * Creates the file if needed and applies pending migrations in one IMMEDIATE transaction, so two
 * processes starting together serialise instead of both migrating.
 */
export function migrateSqlite(path: string, files: readonly MigrationFile[]): string[] {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 30_000 });
  try {
    // WAL lets the web server read while a worker writes; it is a property of the file.
    db.pragma("journal_mode = WAL");
    const migrate = db.transaction(() => {
      db.exec(HISTORY_TABLE);
      const applied = db.prepare(`SELECT "name", "checksum" FROM "_dualstate_migrations"`).all() as AppliedMigration[];
      const pending = planMigrations(files, applied);
      const record = db.prepare(`INSERT INTO "_dualstate_migrations" ("name", "checksum", "appliedAt") VALUES (?, ?, ?)`);
      for (const file of pending) {
        db.exec(file.sql);
        record.run(file.name, file.checksum, new Date().toISOString());
      }
      return pending.map((file) => file.name);
    });
    return migrate.immediate();
  } finally {
    db.close();
  }
}

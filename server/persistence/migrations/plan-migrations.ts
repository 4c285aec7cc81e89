import type { MigrationFile } from "./migration-files";

export interface AppliedMigration {
  readonly name: string;
  readonly checksum: string;
}

export class MigrationError extends Error {
  override readonly name = "MigrationError";
  readonly code = "MIGRATION_FAILED";
}

/**
 * Decides which migrations to apply, refusing to touch a database whose history does not
 * match the checked-in files: changing an applied migration or running older code against a
 * newer database would corrupt data silently.
 */
export function planMigrations(files: readonly MigrationFile[], applied: readonly AppliedMigration[]): MigrationFile[] {
  const byName = new Map(files.map((file) => [file.name, file]));
  for (const done of applied) {
    const file = byName.get(done.name);
    if (!file) {
      throw new MigrationError(
        `The database has migration "${done.name}", which this version of Dualstate does not know. ` +
          "It was migrated by a newer version; upgrade Dualstate or point DATABASE_URL at another database.",
      );
    }
    if (file.checksum !== done.checksum) {
      throw new MigrationError(
        `Migration "${done.name}" was changed after it was applied to this database. ` +
          "Restore the original prisma/migrations file and add a new migration instead.",
      );
    }
  }
  const appliedNames = new Set(applied.map((done) => done.name));
  return files.filter((file) => !appliedNames.has(file.name));
}

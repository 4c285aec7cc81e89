import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../project-root";
import type { DatabaseProvider } from "../schema/provider-schema";

export interface MigrationFile {
  /** Folder name, e.g. 20261121000000_init; names sort in the order they must be applied. */
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

export function migrationsFolder(provider: DatabaseProvider, root = projectRoot()): string {
  return join(root, "prisma", "migrations", provider);
}

/** The checked-in migrations of one provider, oldest first. */
export function readMigrationFiles(provider: DatabaseProvider, root = projectRoot()): MigrationFile[] {
  const folder = migrationsFolder(provider, root);
  if (!existsSync(folder)) throw new Error(`Migrations folder not found: ${folder}`);
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(folder, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

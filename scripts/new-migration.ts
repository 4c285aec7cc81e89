/**
 * npm run db:new-migration -- <name>
 *
 * After a change to prisma/models.prisma: regenerates both provider schemas and writes one new
 * migration per provider, the SQL that takes the schema of the last migration to the current
 * one. The schema each migration ends at is kept beside the migrations (schema-snapshot.prisma),
 * so no shadow database is needed. Review the SQL before committing it.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrationsFolder } from "../server/persistence/migrations/migration-files";
import { diffSchemas } from "../server/persistence/schema/prisma-diff";
import { PROVIDERS } from "../server/persistence/schema/provider-schema";
import { projectRoot } from "../server/persistence/project-root";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:new-migration -- <name>   (lower-case letters, digits and _)");
  process.exit(2);
}

const root = projectRoot();
execFileSync(process.execPath, [join(root, "node_modules", "tsx", "dist", "cli.mjs"), join(root, "scripts", "generate-prisma-schemas.ts")], { stdio: "inherit" });
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

for (const provider of PROVIDERS) {
  const folder = migrationsFolder(provider, root);
  const schema = join(root, "prisma", provider, "schema.prisma");
  const snapshot = join(folder, "schema-snapshot.prisma");
  const sql = await diffSchemas({ root, provider, from: existsSync(snapshot) ? snapshot : "empty", to: schema, postgresUrl });
  if (!/\S/.test(sql.replace(/^--.*$/gm, ""))) {
    console.log(`${provider}: no changes`);
    continue;
  }
  const target = join(folder, `${stamp}_${name}`);
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, "migration.sql"), sql);
  copyFileSync(schema, snapshot);
  console.log(`${provider}: wrote ${join(target, "migration.sql")}`);
}

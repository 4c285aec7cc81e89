/**
 * Writes prisma/<provider>/schema.prisma for SQLite and PostgreSQL from the one provider-neutral
 * prisma/models.prisma. Both generated schemas are committed so that a diff shows model changes,
 * and a unit test fails when they are stale.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderProviderSchema, PROVIDERS } from "../server/persistence/schema/provider-schema";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const models = readFileSync(join(root, "prisma/models.prisma"), "utf8");

for (const provider of PROVIDERS) {
  const target = join(root, "prisma", provider, "schema.prisma");
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, renderProviderSchema(provider, models));
}

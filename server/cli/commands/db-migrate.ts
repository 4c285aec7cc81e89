import type { Env } from "../../env";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { describeDatabase } from "../describe-database";
import type { CliIo } from "../io";

/** `dualstate db migrate`: creates the database when missing and applies pending migrations. */
export async function dbMigrate(env: Env, io: CliIo): Promise<void> {
  const applied = await migrateDatabase(env.DATABASE_URL);
  const where = describeDatabase(env.DATABASE_URL);
  if (applied.length === 0) io.out(`Database ${where} is up to date.`);
  else io.out(`Database ${where}: applied ${applied.length} migration(s): ${applied.join(", ")}`);
}

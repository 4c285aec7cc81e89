import type { Env } from "../../env";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { isServiceError } from "../../services/errors";
import { exportWorkflowDefinition } from "../../services/workflows/export-definition";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { UsageError } from "../usage-error";

export const EXPORT_OPTIONS = { version: { type: "string" } } as const;

/**
 * `dualstate export <workflow name> [--version N]`: the stored definition (latest version unless
 * --version) as YAML on stdout. Exit 1 when there is no such workflow or version.
 */
export async function exportCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, EXPORT_OPTIONS, "export");
  const [name, ...extra] = positionals;
  if (!name) throw new UsageError("dualstate export: expected <workflow name>");
  if (extra.length > 0) throw new UsageError(`dualstate export: unexpected argument "${extra[0]}"`);
  let version: number | undefined;
  if (values.version !== undefined) {
    version = Number(values.version);
    if (!/^\d+$/.test(values.version) || !Number.isSafeInteger(version) || version < 1) throw new UsageError(`dualstate export: --version: "${values.version}" is not a version number (1, 2, ...)`);
  }

  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  try {
    io.out(await exportWorkflowDefinition(db, name, version));
    return EXIT.ok;
  } catch (error) {
    if (!isServiceError(error)) throw error;
    io.err(`dualstate export: ${error.message}`);
    return EXIT.failed;
  } finally {
    await db.$disconnect();
  }
}

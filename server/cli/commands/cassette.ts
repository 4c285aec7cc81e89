import { writeFileSync } from "node:fs";
import type { Env } from "../../env";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { exportCassette } from "../../services/cassettes/export-cassette";
import { isServiceError } from "../../services/errors";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { UsageError } from "../usage-error";
import { terminalJson } from "../terminal-text";

export const EXPORT_OPTIONS = { output: { type: "string", short: "o" } } as const;

/** `dualstate cassette <subcommand>`; only `export` so far. */
export async function cassetteCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "export") return exportCommand(rest, env, io);
  throw new UsageError(subcommand ? `dualstate cassette: unknown subcommand "${subcommand}"` : "dualstate cassette: missing subcommand (export)");
}

/**
 * `dualstate cassette export <runId> [--output FILE]`: the run's answers (export-cassette.ts) as cassette JSON on
 * stdout, or in FILE (then stdout stays empty and a one-line notice goes to stderr).
 */
async function exportCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, EXPORT_OPTIONS, "cassette export");
  const [runId, ...extra] = positionals;
  if (!runId) throw new UsageError("dualstate cassette export: expected <runId>");
  if (extra.length > 0) throw new UsageError(`dualstate cassette export: unexpected argument "${extra[0]}"`);
  if (values.output === "") throw new UsageError("dualstate cassette export: --output needs a file name");

  // Every entry point migrates first (see migrate.ts), so an old database file still works.
  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  try {
    const cassette = await exportCassette(db, runId);
    const json = `${terminalJson(cassette, 2)}\n`;
    if (values.output === undefined) {
      io.out(json);
      return EXIT.ok;
    }
    writeFileSync(values.output, json);
    const attempts = Object.values(cassette.steps).reduce((sum, list) => sum + list.length, 0);
    io.err(`Wrote the cassette of run ${runId} (${Object.keys(cassette.steps).length} steps, ${attempts} attempts) to ${values.output}`);
    return EXIT.ok;
  } catch (error) {
    if (!isServiceError(error)) throw error;
    io.err(`dualstate cassette export: ${error.message}`);
    return EXIT.failed;
  } finally {
    await db.$disconnect();
  }
}

import { writeFileSync } from "node:fs";
import type { Env } from "../../env";
import { createDb } from "../../persistence/db";
import { migrateDatabase } from "../../persistence/migrations/migrate";
import { isServiceError } from "../../services/errors";
import { exportProvenanceRepository } from "../../services/provenance/export-git";
import { isExportLimitError } from "../../services/provenance/export-limits";
import { exportProvJson } from "../../services/provenance/get-provenance";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { UsageError } from "../usage-error";
import { terminalJson } from "../terminal-text";

export const EXPORT_OPTIONS = { git: { type: "string" }, output: { type: "string", short: "o" } } as const;

/** `dualstate provenance <subcommand>`; only `export` so far. */
export async function provenanceCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "export") return exportCommand(rest, env, io);
  throw new UsageError(subcommand ? `dualstate provenance: unknown subcommand "${subcommand}"` : "dualstate provenance: missing subcommand (export)");
}

/**
 * `dualstate provenance export <runId> --git DIR`: the run's provenance as a git repository in DIR
 * (one commit per attempt). Without --git: PROV-JSON on stdout, or in FILE with --output.
 */
async function exportCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, EXPORT_OPTIONS, "provenance export");
  const [runId, ...extra] = positionals;
  if (!runId) throw new UsageError("dualstate provenance export: expected <runId>");
  if (extra.length > 0) throw new UsageError(`dualstate provenance export: unexpected argument "${extra[0]}"`);
  if (values.git === "") throw new UsageError("dualstate provenance export: --git needs a folder");
  if (values.output === "") throw new UsageError("dualstate provenance export: --output needs a file name");
  if (values.git !== undefined && values.output !== undefined) throw new UsageError("dualstate provenance export: give --git DIR or --output FILE, not both");

  await migrateDatabase(env.DATABASE_URL);
  const db = createDb(env.DATABASE_URL);
  try {
    if (values.git !== undefined) {
      const { commits } = await exportProvenanceRepository(db, runId, values.git);
      io.err(`Wrote the provenance of run ${runId} as a git repository in ${values.git} (${commits} commits)`);
      return EXIT.ok;
    }
    const json = `${terminalJson(await exportProvJson(db, runId), 2)}\n`;
    if (values.output === undefined) io.out(json);
    else writeFileSync(values.output, json);
    return EXIT.ok;
  } catch (error) {
    const known = isServiceError(error) || isExportLimitError(error) || (error instanceof Error && error.name === "GitUnavailableError");
    if (!known) throw error;
    io.err(`dualstate provenance export: ${(error as Error).message}`);
    return EXIT.failed;
  } finally {
    await db.$disconnect();
  }
}

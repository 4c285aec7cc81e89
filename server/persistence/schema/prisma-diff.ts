import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { DatabaseProvider } from "./provider-schema";

const run = promisify(execFile);

/**
 * The SQL that turns one schema into another, from Prisma's own differ (`prisma migrate diff`).
 * `from: "empty"` gives the full DDL. The CLI insists on a reachable database even though it
 * only compares datamodels: a throwaway SQLite file, or `postgresUrl` for PostgreSQL.
 */
export async function diffSchemas(options: {
  root: string;
  provider: DatabaseProvider;
  from: "empty" | string;
  to: string;
  postgresUrl?: string;
}): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), "dualstate-diff-"));
  try {
    const databaseUrl = options.provider === "postgres" ? options.postgresUrl : `file:${join(scratch, "scratch.db")}`;
    if (!databaseUrl) throw new Error("diffSchemas: postgresUrl is required for PostgreSQL");
    const from = options.from === "empty" ? ["--from-empty"] : ["--from-schema-datamodel", options.from];
    const { stdout } = await run(
      process.execPath,
      [join(options.root, "node_modules", "prisma", "build", "index.js"), "migrate", "diff", ...from, "--to-schema-datamodel", options.to, "--script"],
      { cwd: options.root, env: { ...process.env, DB_PROVIDER: options.provider, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" } },
    );
    return stdout;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

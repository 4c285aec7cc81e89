import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv, EnvError } from "../env";
import { MigrationError } from "../persistence/migrations/migrate";
import { projectRoot } from "../persistence/project-root";
import { cassetteCommand } from "./commands/cassette";
import { dbMigrate } from "./commands/db-migrate";
import { escalationsCommand } from "./commands/escalations";
import { exportCommand } from "./commands/export";
import { guardCommand } from "./commands/guard";
import { provenanceCommand } from "./commands/provenance";
import { runCommand } from "./commands/run";
import { runsCommand } from "./commands/runs";
import { workerCommand } from "./commands/worker";
import { serve } from "./commands/serve";
import { validateCommand } from "./commands/validate";
import { EXIT, processIo, type CliIo } from "./io";
import { terminalSafe } from "./terminal-text";
import { USAGE } from "./usage";
import { UsageError } from "./usage-error";

function version(): string {
  const manifest = JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

async function dispatch(argv: string[], environment: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError("dualstate: missing command");
  if (command === "-h" || command === "--help" || command === "help") {
    io.out(USAGE);
    return EXIT.ok;
  }
  if (command === "-v" || command === "--version") {
    io.out(`dualstate ${version()}`);
    return EXIT.ok;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(USAGE);
    return EXIT.ok;
  }
  switch (command) {
    case "db": {
      const [subcommand, ...extra] = rest;
      if (subcommand !== "migrate") throw new UsageError(subcommand ? `dualstate db: unknown subcommand "${subcommand}"` : "dualstate db: missing subcommand (migrate)");
      if (extra.length > 0) throw new UsageError(`dualstate db migrate: unexpected argument "${extra[0]}"`);
      await dbMigrate(parseEnv(environment), io);
      return EXIT.ok;
    }
    case "guard":
      return guardCommand(rest, parseEnv(environment), io);
    case "cassette":
      return cassetteCommand(rest, parseEnv(environment), io);
    case "provenance":
      return provenanceCommand(rest, parseEnv(environment), io);
    case "validate":
      return validateCommand(rest, io);
    case "run":
      return runCommand(rest, parseEnv(environment), io);
    case "export":
      return exportCommand(rest, parseEnv(environment), io);
    case "worker":
      return workerCommand(rest, parseEnv(environment), io);
    case "runs":
      return runsCommand(rest, parseEnv(environment), io);
    case "escalations":
      return escalationsCommand(rest, parseEnv(environment), io);
    case "start":
    case "dev":
      return serve(command, rest, parseEnv(environment), io);
    default:
      throw new UsageError(command.startsWith("-") ? `dualstate: unknown option "${command}"` : `dualstate: unknown command "${command}"`);
  }
}

/**
 * Runs the CLI and returns the exit code. Users see messages, never stack traces:
 * DUALSTATE_DEBUG=1 adds the stack of unexpected errors.
 */
export async function main(argv: string[], environment: NodeJS.ProcessEnv = process.env, output: CliIo = processIo): Promise<number> {
  // Everything printed passes through one filter: artifacts, feedback and documents are hostile text.
  const io: CliIo = { out: (text) => output.out(terminalSafe(text)), err: (text) => output.err(terminalSafe(text)) };
  try {
    return await dispatch(argv, environment, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof EnvError || error instanceof MigrationError) {
      io.err(error.message);
      return EXIT.failed;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`dualstate: ${message}`);
    if (environment.DUALSTATE_DEBUG === "1" && error instanceof Error && error.stack) io.err(error.stack);
    return EXIT.failed;
  }
}

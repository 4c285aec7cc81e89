import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../env";
import { EnvError } from "../env-error";
import { MigrationError } from "../persistence/migrations/plan-migrations";
import { projectRoot } from "../persistence/project-root";
import { EXIT, processIo, type CliIo } from "./io";
import { terminalSafe } from "./terminal-text";
import { USAGE } from "./usage";
import { UsageError } from "./usage-error";

function version(): string {
  const manifest = JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

type Command = (args: string[], environment: NodeJS.ProcessEnv, io: CliIo) => Promise<number>;

/** The environment, parsed only once a command runs (the schema is loaded then too). */
async function parsedEnv(environment: NodeJS.ProcessEnv): Promise<Env> {
  return (await import("../env")).parseEnv(environment);
}

async function dbCommand(args: string[], environment: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [subcommand, ...extra] = args;
  if (subcommand !== "migrate") throw new UsageError(subcommand ? `dualstate db: unknown subcommand "${subcommand}" (migrate)` : "dualstate db: missing subcommand (migrate)");
  if (extra.length > 0) throw new UsageError(`dualstate db migrate: unexpected argument "${extra[0]}"`);
  const { dbMigrate } = await import("./commands/db-migrate");
  await dbMigrate(await parsedEnv(environment), io);
  return EXIT.ok;
}

/**
 * Every command, by the name typed. Each loads its module when it runs, not before: `--help`,
 * `--version` and a mistyped command answer without loading the database, the sandboxes or the
 * TypeScript compiler.
 */
const COMMANDS: Readonly<Record<string, Command>> = {
  start: async (args, environment, io) => (await import("./commands/serve")).serve("start", args, await parsedEnv(environment), io),
  dev: async (args, environment, io) => (await import("./commands/serve")).serve("dev", args, await parsedEnv(environment), io),
  db: dbCommand,
  guard: async (args, environment, io) => (await import("./commands/guard")).guardCommand(args, await parsedEnv(environment), io),
  validate: async (args, _environment, io) => (await import("./commands/validate")).validateCommand(args, io),
  run: async (args, environment, io) => (await import("./commands/run")).runCommand(args, await parsedEnv(environment), io),
  eval: async (args, environment, io) => (await import("./commands/eval")).evalCommand(args, await parsedEnv(environment), io),
  worker: async (args, environment, io) => (await import("./commands/worker")).workerCommand(args, await parsedEnv(environment), io),
  runs: async (args, environment, io) => (await import("./commands/runs")).runsCommand(args, await parsedEnv(environment), io),
  escalations: async (args, environment, io) => (await import("./commands/escalations")).escalationsCommand(args, await parsedEnv(environment), io),
  export: async (args, environment, io) => (await import("./commands/export")).exportCommand(args, await parsedEnv(environment), io),
  cassette: async (args, environment, io) => (await import("./commands/cassette")).cassetteCommand(args, await parsedEnv(environment), io),
  provenance: async (args, environment, io) => (await import("./commands/provenance")).provenanceCommand(args, await parsedEnv(environment), io),
  datasets: async (args, environment, io) => (await import("./commands/datasets")).datasetsCommand(args, await parsedEnv(environment), io),
};

/**
 * The subcommands of the commands that have them, as USAGE lists them (each command refuses
 * others itself); here so that `--help` after a wrong subcommand is the same usage error.
 */
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  db: ["migrate"],
  runs: ["list", "show", "report"],
  escalations: ["list", "show", "approve", "reject"],
  cassette: ["export"],
  provenance: ["export"],
  datasets: ["upload", "list"],
};

const isHelp = (arg: string) => arg === "--help" || arg === "-h";

/** `<command> [<subcommand>] ... --help`: the usage for a real command, a usage error for a wrong one. */
function helpFor(command: string, args: string[]): string {
  const subcommands = Object.hasOwn(SUBCOMMANDS, command) ? SUBCOMMANDS[command]! : undefined;
  const subcommand = args[0];
  if (subcommands && subcommand !== undefined && !isHelp(subcommand) && !subcommands.includes(subcommand)) {
    throw new UsageError(`dualstate ${command}: unknown subcommand "${subcommand}" (${subcommands.join(", ")})`);
  }
  return USAGE;
}

async function dispatch(argv: string[], environment: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError("dualstate: missing command");
  if (isHelp(name) || name === "help") {
    io.out(USAGE);
    return EXIT.ok;
  }
  if (name === "-v" || name === "--version") {
    io.out(`dualstate ${version()}`);
    return EXIT.ok;
  }
  // Looked up before any --help: a wrong command is a usage error (exit 2) even when help is asked for.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(name.startsWith("-") ? `dualstate: unknown option "${name}"` : `dualstate: unknown command "${name}"`);
  if (rest.some(isHelp)) {
    io.out(helpFor(name, rest));
    return EXIT.ok;
  }
  return command(rest, environment, io);
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

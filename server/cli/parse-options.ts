import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage-error";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs in strict mode, with its errors turned into UsageError (exit 2). */
export function parseOptions<T extends Options>(args: string[], options: T, command: string) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`dualstate ${command}: ${message}`);
  }
}

/** Like parseOptions, for commands that also take positional arguments. */
export function parseCommandLine<T extends Options>(args: string[], options: T, command: string) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`dualstate ${command}: ${message}`);
  }
}

/** A --port value: a whole number between 1 and 65535. */
export function parsePortOption(value: string | undefined, fallback: number, command: string): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`dualstate ${command}: --port: "${value}" is not a port number (1-65535)`);
  return port;
}

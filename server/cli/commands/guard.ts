import { configurationErrorOf, createArtifact, type Artifact } from "../../engine";
import type { Env } from "../../env";
import { GuardSpecError } from "../../guards/guard-spec";
import { languageFromFileName, normalizeLanguage, type GuardLanguage } from "../../guards/language";
import { createGuard } from "../../guards/registry";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { readBoundedText } from "../read-bounded-text";
import { UsageError } from "../usage-error";
import { terminalJson } from "../terminal-text";

export const GUARD_OPTIONS = {
  language: { type: "string", short: "l" },
  test: { type: "string" },
  dep: { type: "string", multiple: true },
  option: { type: "string", multiple: true },
} as const;

function readFileOrThrow(path: string, what: string): string {
  try {
    return readBoundedText(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new UsageError(`dualstate guard: cannot read ${what} "${path}": ${reason}`);
  }
}

/** "KEY=VALUE": VALUE is JSON when it parses as JSON, otherwise text; "@FILE" reads it from a file. */
function parseOption(raw: string): [string, unknown] {
  const equals = raw.indexOf("=");
  if (equals <= 0) throw new UsageError(`dualstate guard: --option "${raw}" must look like KEY=VALUE`);
  const key = raw.slice(0, equals);
  let text = raw.slice(equals + 1);
  if (text.startsWith("@")) text = readFileOrThrow(text.slice(1), `the value of option ${key}`);
  try {
    return [key, JSON.parse(text)];
  } catch {
    return [key, text];
  }
}

function parseDependency(raw: string): [string, Artifact] {
  const equals = raw.indexOf("=");
  if (equals <= 0) throw new UsageError(`dualstate guard: --dep "${raw}" must look like NAME=FILE`);
  const name = raw.slice(0, equals);
  const content = readFileOrThrow(raw.slice(equals + 1), `dependency ${name}`);
  return [name, createArtifact({ id: `dependency:${name}`, content, version: 1, parentId: null })];
}

function resolveLanguage(option: string | undefined, artifactPath: string): GuardLanguage | undefined {
  if (option === undefined) return languageFromFileName(artifactPath);
  const language = normalizeLanguage(option);
  if (!language) throw new UsageError(`dualstate guard: --language "${option}" is not one of js, ts, python`);
  return language;
}

/**
 * `dualstate guard <kind> <artifact-file>`: one verdict as one JSON object on stdout. The exit
 * code is 0 whatever the verdict; 2 means the command line (or the guard's options) was wrong.
 */
export async function guardCommand(args: string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(args, GUARD_OPTIONS, "guard");
  const [kind, artifactPath, ...extra] = positionals;
  if (!kind || !artifactPath) throw new UsageError("dualstate guard: expected <kind> <artifact-file>");
  if (extra.length > 0) throw new UsageError(`dualstate guard: unexpected argument "${extra[0]}"`);
  if (values.test !== undefined && kind !== "test") throw new UsageError("dualstate guard: --test applies to the test guard only (tdd takes --dep test=FILE)");

  const spec: Record<string, unknown> = Object.fromEntries((values.option ?? []).map(parseOption));
  spec.kind = kind;
  if (values.test !== undefined) spec.test = readFileOrThrow(values.test, "test file");
  const content = readFileOrThrow(artifactPath, "artifact");
  const dependencies = Object.fromEntries((values.dep ?? []).map(parseDependency));
  const language = resolveLanguage(values.language, artifactPath);

  let guard;
  try {
    guard = createGuard(spec, { language, judge: { baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.OPENAI_MODEL } });
  } catch (error) {
    if (error instanceof GuardSpecError) {
      const hint = /\.language: required/.test(error.message) ? `\n(cannot tell the language from "${artifactPath}"; pass --language js|ts|python)` : "";
      throw new UsageError(`dualstate guard: ${error.message}${hint}`);
    }
    throw error;
  }
  const artifact = createArtifact({ id: "cli-artifact", content, version: 1, parentId: null });
  let result;
  try {
    result = await guard.validate(artifact, dependencies);
  } catch (error) {
    // Options that no artifact could pass (a tdd guard without tests) are the command line's mistake.
    const misconfigured = configurationErrorOf(error);
    if (misconfigured?.source === "workflow") throw new UsageError(`dualstate guard: ${misconfigured.reason} (on the command line: --dep test=FILE${kind === "test" ? " or --test FILE" : ""})`);
    throw error;
  }
  io.out(terminalJson({ passed: result.passed, fatal: result.fatal, feedback: result.feedback, durationMs: result.durationMs ?? 0 }));
  return EXIT.ok;
}

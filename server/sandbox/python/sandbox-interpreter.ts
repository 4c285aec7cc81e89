import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { dirname, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { mirrorPaths, type MirroredPaths } from "../boundary/mirror-paths";
import { isRootServer } from "../boundary/sandbox-identity";
import { rememberSuccess } from "./remember-success";
import { findOnPath, PYTHON_MISSING, resolvePythonExecutable } from "./resolve-python";

const PROBE = fileURLToPath(new URL("./probe_interpreter.py", import.meta.url));
const MAX_PROBE_OUTPUT = 1024 * 1024;
/** Public, read-only system data the interpreter may use: the loader's cache and the time zones (zoneinfo). */
const PUBLIC_DATA = ["/etc/ld.so.cache", "/usr/share/zoneinfo"];

/** What the sandbox binds for one interpreter: its real executable, its stdlib, and their libraries. */
export interface SandboxInterpreter {
  readonly executable: string;
  readonly version: readonly [number, number];
  readonly files: MirroredPaths;
}

export type InterpreterLookup = { readonly ok: true; readonly interpreter: SandboxInterpreter } | { readonly ok: false; readonly message: string };

/**
 * The interpreter behind `command` and everything it needs inside the sandbox, found once per
 * command: the real executable, the directories on its sys.path (the standard library and its
 * extension modules), and every shared library the executable and those extension modules load
 * (from ldd), each with the symbolic links that lead to it. Nothing else of the interpreter's
 * prefix, and no site-packages (-S), is importable.
 */
export const sandboxInterpreter: (command: string) => Promise<InterpreterLookup> = rememberSuccess((command) => probe(command));

interface ProbeReport {
  readonly executable: string;
  readonly version: [number, number];
  readonly path: string[];
  readonly extensions: string[];
}

async function probe(command: string): Promise<InterpreterLookup> {
  // A pyenv shim under /root: known unreadable before paying for the shim (~400 ms).
  const onPath = await findOnPath(command);
  const hiddenShim = onPath ? await firstHiddenDirectory(onPath) : null;
  if (hiddenShim) return { ok: false, message: `it is inside ${hiddenShim}, which the sandbox's user cannot enter` };
  const python = await resolvePythonExecutable(command);
  if (!python.ok) return python;
  const hiddenFirst = await firstHiddenDirectory(python.path);
  if (hiddenFirst) return { ok: false, message: `it is inside ${hiddenFirst}, which the sandbox's user cannot enter` };
  let report: ProbeReport;
  try {
    report = JSON.parse(await run(python.path, ["-I", "-S", "-B", PROBE])) as ProbeReport;
  } catch {
    return { ok: false, message: `${PYTHON_MISSING} (${command} did not answer the sandbox's probe)` };
  }
  if (!isAbsolute(report.executable)) return { ok: false, message: `python3 did not report where its executable is (${command})` };
  const hidden = await firstHiddenDirectory(report.executable);
  if (hidden) return { ok: false, message: `it is inside ${hidden}, which the sandbox's user cannot enter` };
  if (report.version[0] < 3 || (report.version[0] === 3 && report.version[1] < 8)) {
    return { ok: false, message: `python3 is ${report.version.join(".")}; Python guards need 3.8 or later` };
  }
  const libraries = await sharedLibraries([report.executable, ...report.extensions]);
  try {
    const files = await mirrorPaths([report.executable, ...report.path, ...libraries, ...(await existing(PUBLIC_DATA))]);
    return { ok: true, interpreter: { executable: report.executable, version: report.version, files } };
  } catch (error) {
    return { ok: false, message: `the sandbox cannot find the files python3 needs: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** ldd calls in parallel, a few files each: ldd's time is mostly waiting, not CPU. */
const LDD_FILES_PER_CALL = 8;

/** Paths of the libraries (and the dynamic loader) that ldd resolves for these ELF files. */
async function sharedLibraries(files: readonly string[]): Promise<string[]> {
  const chunks: string[][] = [];
  for (let start = 0; start < files.length; start += LDD_FILES_PER_CALL) chunks.push(files.slice(start, start + LDD_FILES_PER_CALL));
  const outputs = await Promise.all(chunks.map((chunk) => run("ldd", chunk).catch((error: { stdout?: string }) => error.stdout ?? "")));
  const output = outputs.join("\n");
  const found = new Set<string>();
  for (const line of output.split("\n")) {
    const match = /=>\s+(\/\S+)\s+\(/.exec(line) ?? /^\s+(\/\S+)\s+\(/.exec(line);
    if (match?.[1]) found.add(match[1]);
  }
  return [...found];
}

/**
 * When the server is root, the sandbox runs as a uid of its own, which reads only what "others"
 * may read. A directory on the way that others cannot enter (pyenv under /root, mode 0700) is
 * found here, before the slower probe; the smoke test in usable-interpreter.ts is the real check.
 */
async function firstHiddenDirectory(path: string): Promise<string | null> {
  if (!isRootServer()) return null;
  for (let directory = dirname(path); ; directory = dirname(directory)) {
    const mode = await stat(directory).then((stats) => stats.mode, () => 0);
    if ((mode & 0o001) === 0) return directory;
    if (directory === "/") return null;
  }
}

async function existing(paths: readonly string[]): Promise<string[]> {
  const { access } = await import("node:fs/promises");
  const present: string[] = [];
  for (const path of paths) if (await access(path).then(() => true, () => false)) present.push(path);
  return present;
}

function run(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(file, args, { timeout: 30_000, maxBuffer: MAX_PROBE_OUTPUT, env: { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv }, (error, stdout) => {
      if (error) reject(Object.assign(error, { stdout }));
      else resolveRun(stdout);
    });
  });
}

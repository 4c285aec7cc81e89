import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { rememberSuccess } from "./remember-success";

export const PYTHON_MISSING = "python3 is not installed or not on PATH; Python guards need it";

export type ResolvedPython = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/**
 * The interpreter to run sandboxes with. The sandbox gets an empty environment, so the command
 * is looked up on the host's PATH here. Then the interpreter's own path (sys.executable) is
 * used: a pyenv or asdf shim is a shell script that costs about 50 ms per start.
 */
export const resolvePythonExecutable: (command: string) => Promise<ResolvedPython> = rememberSuccess(resolve);

async function resolve(command: string): Promise<ResolvedPython> {
  const found = await findOnPath(command);
  if (!found) return { ok: false, message: PYTHON_MISSING };
  const executable = await askExecutable(found);
  return { ok: true, path: executable ?? found };
}

export async function findOnPath(command: string): Promise<string | null> {
  const candidates = command.includes("/") ? [command] : (process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(delimiter).filter(isAbsolute).map((dir) => join(dir, command));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function askExecutable(python: string): Promise<string | null> {
  return new Promise((resolvePath) => {
    // The host's environment on purpose: a shim needs its own variables to pick the version.
    execFile(python, ["-I", "-S", "-B", "-c", "import sys; print(sys.executable)"], { timeout: 10_000 }, (error, stdout) => {
      const path = stdout.trim();
      resolvePath(!error && isAbsolute(path) ? path : null);
    });
  });
}

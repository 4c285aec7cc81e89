import { spawn } from "node:child_process";
import { resolvePythonExecutable } from "../../sandbox/python/resolve-python";

export type PythonRun =
  | { readonly kind: "finished"; readonly exitCode: number | null; readonly stdout: string; readonly stderr: string }
  | { readonly kind: "timeout" }
  | { readonly kind: "unavailable"; readonly message: string };

// Next.js declares NODE_ENV as always present in ProcessEnv; a child really gets nothing.
const EMPTY_ENV = {} as NodeJS.ProcessEnv;

/**
 * Runs one of Dualstate's own Python helper scripts (parsers and analysers, not generated code)
 * with the input on stdin, in isolated mode and an empty environment, killed after `timeoutMs`.
 */
export async function runPythonScript(options: {
  scriptPath: string;
  input: string;
  timeoutMs: number;
  pythonExecutable?: string;
  maxOutputBytes?: number;
}): Promise<PythonRun> {
  // The same interpreter the sandbox uses, found on the host's PATH (the child's is empty).
  const python = await resolvePythonExecutable(options.pythonExecutable ?? "python3");
  if (!python.ok) return { kind: "unavailable", message: python.message };
  const maxOutput = options.maxOutputBytes ?? 1024 * 1024;
  return new Promise((resolve) => {
    const child = spawn(python.path, ["-I", "-S", "-B", options.scriptPath], { env: EMPTY_ENV, stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (run: PythonRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(run);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle({ kind: "timeout" });
    }, options.timeoutMs);
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxOutput) into.push(chunk);
      else child.kill("SIGKILL");
    };
    child.stdout.on("data", collect(stdout));
    child.stderr.on("data", collect(stderr));
    child.on("error", (error: NodeJS.ErrnoException) => {
      settle({ kind: "unavailable", message: `python3 could not be started: ${error.message}` });
    });
    child.on("close", (exitCode) => {
      settle({ kind: "finished", exitCode, stdout: Buffer.concat(stdout).toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8") });
    });
    child.stdin.on("error", () => {}); // the child may exit before reading all input; its exit code tells
    child.stdin.end(options.input);
  });
}

import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "../../persistence/project-root";

export interface SpawnedWorker {
  readonly process: ChildProcess;
  /** Resolves with the exit code, or the signal that ended the process. */
  readonly exited: Promise<number | NodeJS.Signals>;
  readonly output: () => string;
}

/** Starts server/worker/testing/worker-process.ts in a child process with `env` added. */
export function spawnWorker(env: Record<string, string>): SpawnedWorker {
  const root = projectRoot();
  const child = spawn(process.execPath, [join(root, "node_modules", "tsx", "dist", "cli.mjs"), "--tsconfig", join(root, "tsconfig.json"), join(root, "server", "worker", "testing", "worker-process.ts")], {
    cwd: root,
    env: { ...process.env, DUALSTATE_LEASE_SECONDS: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code ?? 1)));
  return { process: child, exited, output: () => output };
}

import { spawn } from "node:child_process";
import { join } from "node:path";

/**
 * Runs the Next.js CLI as a child process and resolves with its exit code. Next is started
 * through node directly (not npx) so that stopping Dualstate stops next-server with it.
 * SIGINT and SIGTERM are passed on while the child runs.
 */
export function runNext(root: string, args: string[], env: NodeJS.ProcessEnv, onMessage?: (message: unknown) => void): Promise<number> {
  const child = spawn(process.execPath, [join(root, "node_modules", "next", "dist", "bin", "next"), ...args], {
    cwd: root,
    env: { NEXT_TELEMETRY_DISABLED: "1", ...env },
    // The IPC channel lets the web server ring the embedded worker's doorbell.
    stdio: onMessage ? ["inherit", "inherit", "inherit", "ipc"] : "inherit",
  });
  if (onMessage) child.on("message", onMessage);
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal ? 128 + 2 : 1));
    });
  });
}

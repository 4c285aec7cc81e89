import { spawn } from "node:child_process";
import { join } from "node:path";

/**
 * Runs the Next.js CLI (here: `next build`) as a child process and resolves with its exit code. Next is started
 * through node directly (not npx) so that stopping Dualstate stops next-server with it.
 * SIGINT and SIGTERM are passed on while the child runs.
 */
export function runNext(root: string, args: string[], env: NodeJS.ProcessEnv, onMessage?: (message: unknown) => void): Promise<number> {
  return runNodeScript(root, join(root, "node_modules", "next", "dist", "bin", "next"), args, env, onMessage);
}

/**
 * Serves the dashboard and API through bin/web-server.mjs: Next.js behind a Node.js HTTP server
 * that passes each request's connection address on (the sign-in limiter keys on it).
 */
export function runWebServer(root: string, mode: "start" | "dev", options: { port: number; hostname?: string }, env: NodeJS.ProcessEnv, onMessage?: (message: unknown) => void): Promise<number> {
  const args = [mode, String(options.port), ...(options.hostname ? [options.hostname] : [])];
  return runNodeScript(root, join(root, "bin", "web-server.mjs"), args, { ...env, NODE_ENV: mode === "dev" ? "development" : "production" }, onMessage);
}

function runNodeScript(root: string, script: string, args: string[], env: NodeJS.ProcessEnv, onMessage?: (message: unknown) => void): Promise<number> {
  const child = spawn(process.execPath, [script, ...args], {
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

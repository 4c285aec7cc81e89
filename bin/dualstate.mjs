#!/usr/bin/env node
// The `dualstate` command: the same server code as the web app, compiled to JavaScript
// (bin/compiled-cli.mjs) so that a command starts at once, from whatever directory.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CLI_ENTRY, compiledEntry } from "./compiled-cli.mjs";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");

// Started before `npm install` (an `npx dualstate` in a fresh checkout): say so, not a stack trace.
if (!existsSync(join(root, "node_modules", "esbuild")) && !existsSync(join(root, "node_modules", "tsx"))) {
  process.stderr.write(`dualstate: the project's dependencies are not installed; run \`npm install\` in ${root} first\n`);
  process.exit(1);
}

// Like Next.js, read a .env file in the project folder; variables already set win.
const envFile = join(root, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
// Stacks of unexpected errors (DUALSTATE_DEBUG=1) then name the TypeScript sources.
if (process.env.DUALSTATE_DEBUG === "1") process.setSourceMapsEnabled(true);

async function loadCli() {
  let entry;
  try {
    entry = await compiledEntry(root);
  } catch (error) {
    // A read-only node_modules, or esbuild missing: slower, but the command still runs.
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    process.stderr.write(`dualstate: running from the TypeScript sources, slower (the compiled command could not be built: ${reason})\n`);
    const { register } = await import("tsx/esm/api");
    register({ tsconfig: join(root, "tsconfig.json") });
    return import(pathToFileURL(join(root, CLI_ENTRY)).href);
  }
  return import(pathToFileURL(entry).href);
}

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// The `dualstate` command. It runs the TypeScript sources through tsx, so the CLI always uses
// the same server code as the web app, from whatever directory it is started in.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// Like Next.js, read a .env file in the project folder; variables already set win.
const envFile = fileURLToPath(new URL("../.env", import.meta.url));
if (existsSync(envFile)) process.loadEnvFile(envFile);

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));

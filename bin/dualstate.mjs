#!/usr/bin/env node
// The `dualstate` command. It runs the TypeScript sources through tsx, so the CLI always uses
// the same server code as the web app, from whatever directory it is started in.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));

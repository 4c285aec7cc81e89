// What `npm install` prepares once the dependencies are in place: the Prisma clients, the
// `dualstate` link npx finds (scripts/link-dualstate-bin.mjs) and the compiled command
// (bin/compiled-cli.mjs), so the first `npx dualstate` starts at once.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compileCli } from "../bin/compiled-cli.mjs";
import { linkDualstateBin } from "./link-dualstate-bin.mjs";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");

const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
const generated = spawnSync(npm[0], [...npm[1], "run", "db:generate"], { cwd: root, stdio: "inherit" });
if (generated.status !== 0) process.exit(generated.status ?? 1);

linkDualstateBin(root);
try {
  await compileCli(root);
} catch (error) {
  // Not fatal: the command compiles itself on its first start, or runs from the sources.
  process.stderr.write(`dualstate: the command was not compiled now (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); its first start will try again\n`);
}

// Links node_modules/.bin/dualstate to this project's own bin/dualstate.mjs, where `npx dualstate`
// finds it. The project's package.json declares no `bin` on purpose: npm 11 runs a bin the project
// itself declares by installing the project into its npx cache first, and an install that failed
// there (run before `npm install`, or from several shells at once) left an entry that made every
// later `npx dualstate` fail with a bare ENOENT. Idempotent, and safe to run concurrently: the
// link is made under a name of its own, then renamed over the old one.
import { mkdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const TARGET = join("..", "..", "bin", "dualstate.mjs");

export function linkDualstateBin(root) {
  const binDir = join(root, "node_modules", ".bin");
  const link = join(binDir, "dualstate");
  try {
    if (readlinkSync(link) === TARGET) return false;
  } catch {
    // Missing, or not a link: (re)made below.
  }
  mkdirSync(binDir, { recursive: true });
  const temporary = `${link}.${process.pid}.${Date.now().toString(36)}`;
  try {
    symlinkSync(TARGET, temporary);
    renameSync(temporary, link);
  } finally {
    rmSync(temporary, { force: true });
  }
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  linkDualstateBin(fileURLToPath(new URL("..", import.meta.url)));
}

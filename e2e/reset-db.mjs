// Deletes the e2e SQLite database so every Playwright run starts from an empty dashboard, and the
// previous run's start output (the argument).
// Chained before the server command in playwright.config.ts: globalSetup would run after
// webServer has already started and migrated the file.
import { mkdirSync, rmSync } from "node:fs";
import process from "node:process";
import { resolve, sep } from "node:path";

const url = process.env.DATABASE_URL ?? "";
if (!url.startsWith("file:")) throw new Error(`e2e/reset-db.mjs: expected a file: DATABASE_URL, got "${url}"`);
const file = resolve(url.slice("file:".length));
// Only ever delete inside data/e2e, whatever DATABASE_URL says.
if (!file.startsWith(resolve("data", "e2e") + sep)) throw new Error(`e2e/reset-db.mjs: refusing to delete ${file}`);

for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });

// The file given as the argument holds what the previous run's `npm start` printed
// (playwright.config.ts pipes the new one there): the sign-in must never use an old run's password.
const output = process.argv[2] ? resolve(process.argv[2]) : undefined;
if (output && !output.startsWith(resolve("data", "e2e") + sep)) throw new Error(`e2e/reset-db.mjs: refusing to delete ${output}`);
mkdirSync(resolve("data", "e2e"), { recursive: true });
if (output) rmSync(output, { force: true });
process.stdout.write(`e2e: reset ${file}\n`);

// Deletes the e2e SQLite database so every Playwright run starts from an empty dashboard.
// Chained before the server command in playwright.config.ts: globalSetup would run after
// webServer has already started and migrated the file.
import { rmSync } from "node:fs";
import process from "node:process";
import { resolve, sep } from "node:path";

const url = process.env.DATABASE_URL ?? "";
if (!url.startsWith("file:")) throw new Error(`e2e/reset-db.mjs: expected a file: DATABASE_URL, got "${url}"`);
const file = resolve(url.slice("file:".length));
// Only ever delete inside data/e2e, whatever DATABASE_URL says.
if (!file.startsWith(resolve("data", "e2e") + sep)) throw new Error(`e2e/reset-db.mjs: refusing to delete ${file}`);

for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
process.stdout.write(`e2e: reset ${file}\n`);

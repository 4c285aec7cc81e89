import { dirname, join, resolve, isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project folder, found from this file's location so the CLI behaves the same from any
 * working directory. Inside the Next.js server bundle the file moves, so fall back to cwd,
 * which `dualstate start` sets to the project folder.
 */
export function projectRoot(): string {
  const here = fileURLToPath(import.meta.url);
  return here.includes(`${join("server", "persistence")}`) ? resolve(dirname(here), "..", "..") : process.cwd();
}

/** Resolves a relative path against the project folder. */
export function fromProjectRoot(path: string): string {
  return isAbsolute(path) ? path : join(projectRoot(), path);
}

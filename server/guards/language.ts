import { extname } from "node:path";
import type { SandboxLanguage } from "../sandbox/types";

/** The languages guards understand; the same names as the sandbox's. */
export type GuardLanguage = SandboxLanguage;
export const GUARD_LANGUAGES = ["javascript", "typescript", "python"] as const satisfies readonly GuardLanguage[];

const ALIASES: Record<string, GuardLanguage> = {
  js: "javascript",
  javascript: "javascript",
  ts: "typescript",
  typescript: "typescript",
  py: "python",
  python: "python",
};

/** "js", "ts", "py" and the full names, in any case; undefined for anything else. */
export function normalizeLanguage(name: string): GuardLanguage | undefined {
  return ALIASES[name.trim().toLowerCase()];
}

const EXTENSIONS: Record<string, GuardLanguage> = {
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescript",
  ".py": "python",
};

export function languageFromFileName(fileName: string): GuardLanguage | undefined {
  return EXTENSIONS[extname(fileName).toLowerCase()];
}

import { linearRegExp } from "./linear-regexp.mjs";

/** A schema comes from a document: its size, its nesting and its patterns are bounded before anything is compiled. */
export const MAX_SCHEMA_BYTES = 64 * 1024;
export const MAX_SCHEMA_DEPTH = 32;

/** JSON pointer of a path, as the document would write it (`/properties/name/pattern`). */
function pointer(path: readonly string[]): string {
  return path.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("") || "/";
}

function shortened(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}…` : key;
}

/**
 * The problem with a schema, or undefined: larger than MAX_SCHEMA_BYTES, nested deeper than
 * MAX_SCHEMA_DEPTH, or a `pattern` / `patternProperties` key the linear-time engine (RE2) does
 * not accept (lookaround and backreferences need backtracking, which is what lets a pattern run
 * for ever). Named by where it is, never by quoting the pattern.
 */
export function schemaProblem(schema: unknown): string | undefined {
  const text = JSON.stringify(schema);
  if (text.length > MAX_SCHEMA_BYTES) return `the schema is larger than ${MAX_SCHEMA_BYTES / 1024} KiB`;
  const problems: string[] = [];
  const visit = (value: unknown, path: string[]): void => {
    if (problems.length > 0 || typeof value !== "object" || value === null) return;
    if (path.length > MAX_SCHEMA_DEPTH) {
      problems.push(`the schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels (at ${pointer(path.map(shortened))})`);
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, key];
      if (!Array.isArray(value) && key === "pattern" && typeof child === "string") checkPattern(child, childPath);
      if (!Array.isArray(value) && key === "patternProperties" && typeof child === "object" && child !== null && !Array.isArray(child)) {
        for (const pattern of Object.keys(child)) checkPattern(pattern, [...childPath, pattern]);
      }
      visit(child, childPath);
    }
  };
  const checkPattern = (pattern: string, path: string[]) => {
    try {
      linearRegExp(pattern, "u");
    } catch {
      problems.push(`${pointer(path.map(shortened))}: the pattern is not supported by the linear-time regular-expression engine (RE2: no lookahead, lookbehind or backreferences)`);
    }
  };
  visit(schema, []);
  return problems[0];
}

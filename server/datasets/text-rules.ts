/**
 * Text every database can store: PostgreSQL refuses NUL in text and JSON, and JSON with a lone
 * UTF-16 surrogate; such text would fail at the insert with a message nobody can act on.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(text)) return "contains invalid Unicode (a lone surrogate)";
  return undefined;
}

/** A case key: a short identifier that reads well in URLs, reports and diffs between versions. */
export const CASE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;

/** Context variable names, as prompts refer to them ({name}). */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Keys that reach object prototypes when later code merges or assigns by key. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** A value quoted for a message, cut short so a hostile value cannot flood the error list. */
export function quoted(value: string, max = 40): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

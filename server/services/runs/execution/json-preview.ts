/**
 * Tool inputs, results and schemas come from a model or another system: the run page and the CLI
 * show them as bounded JSON text, never whole.
 */
export const JSON_PREVIEW_CHARS = 2_000;

export interface JsonPreview {
  readonly text: string;
  /** The value's JSON was longer than the preview and was cut. */
  readonly truncated: boolean;
}

export function previewJson(value: unknown, maxChars = JSON_PREVIEW_CHARS): JsonPreview {
  const text = JSON.stringify(value, null, 2) ?? "null";
  return text.length <= maxChars ? { text, truncated: false } : { text: `${text.slice(0, maxChars)}…`, truncated: true };
}

const MAX_EXAMPLE_DEPTH = 4;
const MAX_EXAMPLE_FIELDS = 20;

type Schema = { readonly type?: unknown; readonly properties?: unknown; readonly required?: unknown; readonly enum?: unknown; readonly const?: unknown; readonly items?: unknown };

function asSchema(value: unknown): Schema | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : null;
}

/** A value of the schema's shape for a person to edit: the required fields first, each at its type's empty value. */
function exampleOf(schema: Schema | null, depth: number): unknown {
  if (!schema) return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "null":
      return null;
    default: {
      const properties = asSchema(schema.properties);
      if (!properties || depth >= MAX_EXAMPLE_DEPTH) return {};
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
      const names = Object.keys(properties).sort((a, b) => Number(required.has(b)) - Number(required.has(a))).slice(0, MAX_EXAMPLE_FIELDS);
      return Object.fromEntries(names.map((name) => [name, exampleOf(asSchema((properties as Record<string, unknown>)[name]), depth + 1)]));
    }
  }
}

/** One-line JSON for `--result`: an object shaped like the result schema, `{}` without one. */
export function resultExample(resultSchema: unknown): string {
  const example = exampleOf(asSchema(resultSchema), 0);
  return JSON.stringify(example !== null && typeof example === "object" && !Array.isArray(example) ? example : {});
}

/** Quotes a word for a POSIX shell: single quotes, each single quote inside closed, escaped and reopened. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command that reports an external tool's result for a waiting call. */
export function reportCommand(runId: string, callId: string, resultJson: string): string {
  return `npx dualstate runs report ${shellQuote(runId)} ${shellQuote(callId)} --result ${shellQuote(resultJson)}`;
}

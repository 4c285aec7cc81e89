import type { DocumentFormat, LoadOptions } from "./types";

/** `.json` files and text starting with `{` or `[` are JSON; everything else is YAML. */
export function detectFormat(text: string, options: LoadOptions): DocumentFormat {
  const requested = options.format ?? "auto";
  if (requested !== "auto") return requested;
  if (options.fileName?.toLowerCase().endsWith(".json")) return "json";
  // Skip a byte-order mark and whitespace only; a YAML comment means YAML.
  const first = /^[\uFEFF\s]*(.)/.exec(text)?.[1];
  return first === "{" || first === "[" ? "json" : "yaml";
}

import { stringify } from "yaml";

/**
 * Writes a plain value as YAML that loadWorkflowDocument reads back unchanged:
 * keys in the given order, 2-space indent, multi-line strings as `|` block
 * literals, no line folding (prompts keep their lines). Strings that another
 * reader could take for something else (`yes`, `no`, `on`, `null`, `1.0`,
 * `*`) are quoted: `compat: "yaml-1.1"` makes the output mean the same to
 * YAML 1.1 tools too. Repeated objects are written out, never as aliases.
 */
export function toYaml(value: unknown): string {
  return stringify(value, {
    version: "1.2",
    schema: "core",
    compat: "yaml-1.1",
    indent: 2,
    lineWidth: 0,
    blockQuote: "literal",
    aliasDuplicateObjects: false,
    sortMapEntries: false,
  });
}

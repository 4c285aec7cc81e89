import { LineCounter, parseDocument, type Document } from "yaml";
import { ProblemList, type Positioner } from "./problems";

/**
 * Parser options chosen for safety and predictability:
 * - core schema, YAML 1.2: `no`/`on`/`yes` stay strings, dates stay strings,
 *   and a `%YAML 1.1` directive cannot switch the schema back;
 * - no custom or "known" extra tags (`!!binary`, `!!set`, `!!omap`,
 *   `!!timestamp`…): nothing can construct anything but plain data;
 * - no `<<` merge keys: a merge silently overrides fields, which hides mistakes;
 * - duplicate keys are not rejected here because the converter reports them
 *   with both positions;
 * - plain error messages: positions are added from the LineCounter instead of
 *   multi-line code frames.
 */
export interface ParsedYaml {
  doc: Document.Parsed;
  /** Offset → 1-based line and column, from the parser's LineCounter. */
  position: Positioner;
  problems: ProblemList;
}

/** Warnings the converter reports itself, with the field path. */
const HANDLED_BY_CONVERTER = new Set(["TAG_RESOLVE_FAILED", "BAD_COLLECTION_TYPE"]);

export function parseYaml(text: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter,
    version: "1.2",
    schema: "core",
    customTags: [],
    resolveKnownTags: false,
    merge: false,
    uniqueKeys: false,
    intAsBigInt: false,
    prettyErrors: false,
    strict: true,
    // Not "silent": that level also drops the "multiple documents" error.
    logLevel: "error",
  });
  const position: Positioner = (offset) => {
    const { line, col } = lineCounter.linePos(offset);
    // linePos reports line 0 before the first newline is known: that is line 1.
    return line === 0 ? { line: 1, column: col + 1 } : { line, column: col };
  };
  const problems = new ProblemList(position);
  for (const error of doc.errors) problems.add("document", shortMessage(error.message), error.pos[0]);
  // Warnings are mistakes too (odd indentation in flow, unknown directives…): a
  // workflow should mean exactly one thing.
  for (const warning of doc.warnings) {
    if (!HANDLED_BY_CONVERTER.has(warning.code)) problems.add("document", shortMessage(warning.message), warning.pos[0]);
  }
  return { doc, position, problems };
}

/** First line only, without a trailing period: one readable sentence. */
function shortMessage(message: string): string {
  const first = message.split("\n", 1)[0]?.trim() ?? "";
  const sentence = first.replace(/\.$/, "");
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence || "invalid YAML";
}

import { Buffer } from "node:buffer";
import { detectFormat } from "./detect-format";
import { checkJsonSyntax } from "./json-syntax";
import { MAX_DOCUMENT_BYTES } from "./limits";
import { createLocator } from "./locate";
import { parseYaml } from "./parse-yaml";
import { prescan } from "./prescan";
import { positionerFor } from "./problems";
import { toValue } from "./to-value";
import type { DocumentProblem, LoadOptions, LoadResult } from "./types";

/**
 * The one way a workflow document (YAML or JSON text) becomes a plain value.
 * Cheap checks run before expensive ones: byte size, then a lexer pass for
 * pathological nesting and scalar count, then (JSON) grammar, then the
 * parser, then the tree walk that enforces tags, keys, depth and aliases. It never throws: every outcome is a
 * value or a list of problems with a path and, where there is one, a place.
 */
export function loadWorkflowDocument(text: string, options: LoadOptions = {}): LoadResult {
  try {
    return load(text, options);
  } catch {
    // A parser bug must not reach the user as a stack trace.
    return fail([{ path: "document", message: "could not be read (unexpected parser failure)" }]);
  }
}

function load(text: string, options: LoadOptions): LoadResult {
  // Counting bytes is linear and allocation-free; nothing else runs on an oversized text.
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_DOCUMENT_BYTES) {
    return fail([{ path: "document", message: `is ${bytes} bytes; the limit is 1 MiB (${MAX_DOCUMENT_BYTES} bytes)` }]);
  }

  const excessive = prescan(text);
  if (excessive) return fail([{ path: "document", ...positionerFor(text)(excessive.offset), message: excessive.message }]);

  if (detectFormat(text, options) === "json") {
    const error = checkJsonSyntax(text);
    if (error) return fail([{ path: "document", ...positionerFor(text)(error.offset), message: `invalid JSON: ${error.message}` }]);
  }

  const { doc, position, problems } = parseYaml(text);
  // Syntax errors make the tree a guess; reporting rule violations on a guess would mislead.
  if (problems.items.length > 0) return fail(problems.finish());

  const value = toValue(doc, text, problems);
  if (problems.items.length > 0) return fail(problems.finish());
  return { ok: true, value, locate: createLocator(doc, text, position) };
}

function fail(problems: DocumentProblem[]): LoadResult {
  return { ok: false, problems };
}

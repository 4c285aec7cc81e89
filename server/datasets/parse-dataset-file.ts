import { Buffer } from "node:buffer";
import { assignKeys } from "./assign-keys";
import { ErrorList } from "./error-list";
import { DATASET_LIMITS } from "./limits";
import { parseCsv } from "./parse-csv";
import { parseJsonl } from "./parse-jsonl";
import { parseYamlCases } from "./parse-yaml-cases";
import type { CaseDraft } from "./read-case";
import { quoted } from "./text-rules";
import type { ParseDatasetResult } from "./types";

export type { CaseChecks, CaseTestLanguage, CaseVariableValue, DatasetFileError, ParsedCase, ParseDatasetResult } from "./types";

export const DATASET_FILE_EXTENSIONS = [".jsonl", ".csv", ".yaml", ".yml"] as const;

const PARSERS: Record<(typeof DATASET_FILE_EXTENSIONS)[number], (text: string, errors: ErrorList) => CaseDraft[]> = {
  ".jsonl": parseJsonl,
  ".csv": parseCsv,
  ".yaml": parseYamlCases,
  ".yml": parseYamlCases,
};

/**
 * Reads a dataset file into cases; the format is chosen by the file name's extension. Every
 * error names its line (0: the file as a whole) and field. Never throws: hostile input yields
 * errors, bounded in number (see DATASET_LIMITS for every bound).
 */
export function parseDatasetFile(fileName: string, text: string): ParseDatasetResult {
  try {
    return parse(fileName, text);
  } catch {
    // A parser bug must not reach the user as a stack trace.
    return { ok: false, errors: [{ line: 0, field: "file", message: "could not be read (unexpected parser failure)" }] };
  }
}

function parse(fileName: string, text: string): ParseDatasetResult {
  const extension = DATASET_FILE_EXTENSIONS.find((ext) => fileName.toLowerCase().endsWith(ext));
  if (!extension) {
    return fail("file", `${quoted(fileName)} must end in ${DATASET_FILE_EXTENSIONS.join(", ")} (the extension chooses the format)`);
  }
  // Counting bytes is linear and allocation-free; nothing else runs on an oversized text.
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > DATASET_LIMITS.fileBytes) return fail("file", `is ${bytes} bytes; the limit is ${DATASET_LIMITS.fileBytes} bytes (4 MiB)`);

  const errors = new ErrorList();
  const drafts = PARSERS[extension](text.startsWith("\uFEFF") ? text.slice(1) : text, errors);
  if (errors.count > 0) return { ok: false, errors: errors.finish() };
  if (drafts.length === 0) return fail("file", "has no cases");
  const cases = assignKeys(drafts, errors);
  if (errors.count > 0) return { ok: false, errors: errors.finish() };
  return { ok: true, cases };
}

function fail(field: string, message: string): ParseDatasetResult {
  return { ok: false, errors: [{ line: 0, field, message }] };
}

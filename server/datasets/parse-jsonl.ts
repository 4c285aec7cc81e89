import type { ErrorList } from "./error-list";
import { DATASET_LIMITS } from "./limits";
import { readCase, sameLine, type CaseDraft } from "./read-case";

/**
 * JSON Lines: one JSON object per line; blank lines are skipped. A line that is not JSON is
 * reported and the rest of the file is still checked, so one upload shows every mistake.
 */
export function parseJsonl(text: string, errors: ErrorList): CaseDraft[] {
  const drafts: CaseDraft[] = [];
  let cases = 0;
  let lineNumber = 0;
  // Line by line without splitting: a file of millions of blank lines allocates nothing per line.
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    lineNumber++;
    const record = line.trim();
    if (record === "") continue;
    if (++cases > DATASET_LIMITS.cases) {
      errors.add(lineNumber, "file", `has more than ${DATASET_LIMITS.cases} cases`);
      break;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(record);
    } catch (error) {
      errors.add(lineNumber, "record", `is not valid JSON (${jsonProblem(error)})`);
      continue;
    }
    const draft = readCase(raw, lineNumber, sameLine(lineNumber), errors);
    if (draft) drafts.push(draft);
  }
  return drafts;
}

/** The parser's own words, first sentence only and short: they differ between Node versions. */
function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const first = message.split("\n", 1)[0]?.trim() ?? "";
  return first === "" ? "syntax error" : first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

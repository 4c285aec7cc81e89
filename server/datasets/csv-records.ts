import { DATASET_LIMITS } from "./limits";

/** One cell and the line it starts on (a quoted cell may span lines). */
export interface CsvCell {
  text: string;
  line: number;
}

export interface CsvRecord {
  line: number;
  cells: CsvCell[];
}

export type CsvReadResult = { ok: true; records: CsvRecord[] } | { ok: false; line: number; message: string };

/** Longest cell accepted: the longest field a case may hold, so the check below is the field's own. */
const MAX_CELL_CHARS = Math.max(DATASET_LIMITS.specificationChars, DATASET_LIMITS.testCodeChars) + 1;

/**
 * RFC 4180 records: comma-separated, cells optionally in double quotes, `""` for a quote inside
 * quotes, line breaks (LF or CRLF) inside quoted cells. Strict where being lenient would guess:
 * a quote inside an unquoted cell or text after a closing quote is an error. A single scan with
 * every count bounded (records, cells per record, cell length); a syntax error stops the scan,
 * because after it nothing is certain about where cells begin.
 */
export function readCsvRecords(text: string): CsvReadResult {
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const record: CsvRecord = { line, cells: [] };
    for (;;) {
      const cellLine = line;
      let cell: string;
      if (text[i] === '"') {
        const start = i;
        const parts: string[] = [];
        let length = 0;
        i++;
        for (;;) {
          const close = text.indexOf('"', i);
          if (close === -1) return { ok: false, line: cellLine, message: `the quoted cell starting at column ${columnOf(text, start)} is never closed` };
          const part = text.slice(i, close);
          line += countLineBreaks(part);
          length += part.length;
          if (length > MAX_CELL_CHARS) return { ok: false, line: cellLine, message: `a cell is longer than ${MAX_CELL_CHARS - 1} characters` };
          parts.push(part);
          if (text[close + 1] === '"') {
            parts.push('"');
            i = close + 2;
            continue;
          }
          i = close + 1;
          break;
        }
        cell = parts.join("").replace(/\r\n/g, "\n");
        const next = text[i];
        if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
          return { ok: false, line, message: `unexpected text after the closing quote of a cell (column ${columnOf(text, i)}); a quote inside a quoted cell is written ""` };
        }
      } else {
        let end = i;
        while (end < n && text[end] !== "," && text[end] !== "\n" && text[end] !== "\r") end++;
        cell = text.slice(i, end);
        if (cell.length > MAX_CELL_CHARS) return { ok: false, line, message: `a cell is longer than ${MAX_CELL_CHARS - 1} characters` };
        if (cell.includes('"')) return { ok: false, line, message: `a cell contains a double quote but does not start with one (column ${columnOf(text, i)}); put the whole cell in double quotes and write the quote as ""` };
        i = end;
      }
      record.cells.push({ text: cell, line: cellLine });
      if (record.cells.length > DATASET_LIMITS.csvColumns) return { ok: false, line: record.line, message: `a row has more than ${DATASET_LIMITS.csvColumns} cells` };
      if (text[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    // End of record: a line break (CRLF or LF) or the end of the text.
    if (text[i] === "\r" && text[i + 1] === "\n") i += 2;
    else if (text[i] === "\n") i += 1;
    else if (text[i] === "\r") return { ok: false, line, message: "a carriage return outside quotes must be followed by a line feed" };
    line++;
    const blank = record.cells.length === 1 && record.cells[0]?.text.trim() === "";
    if (!blank) {
      records.push(record);
      // The header and one more than the case limit: enough to report the limit, no more work.
      if (records.length > DATASET_LIMITS.cases + 1) return { ok: false, line: record.line, message: `has more than ${DATASET_LIMITS.cases} cases` };
    }
  }
  return { ok: true, records };
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

function columnOf(text: string, offset: number): number {
  return offset - text.lastIndexOf("\n", offset - 1);
}

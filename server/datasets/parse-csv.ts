import type { ErrorList } from "./error-list";
import { readCsvRecords, type CsvCell } from "./csv-records";
import { readCase, type CaseDraft, type FieldPlace } from "./read-case";
import { quoted, VARIABLE_NAME_PATTERN } from "./text-rules";

/**
 * CSV with a header row. Columns: `specification` (required), `key`, `rubric`, `tests_language`,
 * `tests_code`, and one `var.NAME` per variable, optionally typed `var.NAME:number` or
 * `var.NAME:boolean` (CSV cells are text; a workflow's variables are typed by their defaults).
 * An empty cell leaves the field out.
 */
type Column =
  | { kind: "key" | "specification" | "rubric" | "tests_language" | "tests_code"; header: string }
  | { kind: "variable"; header: string; name: string; type: "text" | "number" | "boolean" };

const FIXED = new Set(["key", "specification", "rubric", "tests_language", "tests_code"]);
const VARIABLE_HEADER = /^var\.([^:]*)(?::(.*))?$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Case field paths → the column a CSV author wrote, for error messages. */
const FIELD_COLUMNS: Record<string, string> = { "checks.tests.language": "tests_language", "checks.tests.code": "tests_code", "checks.rubric": "rubric", "checks.tests": "tests_code" };

export function parseCsv(text: string, errors: ErrorList): CaseDraft[] {
  const read = readCsvRecords(text);
  if (!read.ok) {
    errors.add(read.line, "record", read.message);
    return [];
  }
  const [header, ...rows] = read.records;
  if (!header) return [];
  const columns = readHeader(header.cells, header.line, errors);
  if (!columns) return [];
  const drafts: CaseDraft[] = [];
  for (const row of rows) {
    if (row.cells.length !== columns.length) {
      errors.add(row.line, "record", `has ${row.cells.length} cells; the header has ${columns.length} columns`);
      continue;
    }
    const raw = rowToRecord(columns, row.cells, errors);
    if (!raw) continue;
    const draft = readCase(raw, row.line, placeIn(columns, row.cells, row.line), errors);
    if (draft) drafts.push(draft);
  }
  return drafts;
}

function readHeader(cells: CsvCell[], line: number, errors: ErrorList): Column[] | undefined {
  const before = errors.count;
  const columns: Column[] = [];
  const seen = new Set<string>();
  for (const cell of cells) {
    const header = cell.text.trim();
    const variable = VARIABLE_HEADER.exec(header);
    let column: Column | undefined;
    if (FIXED.has(header)) column = { kind: header as "key", header };
    else if (variable) {
      const name = variable[1] ?? "";
      const type = variable[2] ?? "text";
      if (!VARIABLE_NAME_PATTERN.test(name)) errors.add(line, header, `${quoted(name)} is not a variable name (letters, digits and _, not starting with a digit)`);
      else if (type !== "text" && type !== "number" && type !== "boolean") errors.add(line, header, `type ${quoted(type)} is not text, number or boolean`);
      else column = { kind: "variable", header, name, type };
    } else {
      errors.add(line, header === "" ? "header" : header, `${quoted(header)} is not a column (expected specification, key, rubric, tests_language, tests_code or var.NAME)`);
    }
    if (!column) continue;
    const identity = column.kind === "variable" ? `var.${column.name}` : column.kind;
    if (seen.has(identity)) errors.add(line, header, "appears twice in the header");
    seen.add(identity);
    columns.push(column);
  }
  if (!seen.has("specification")) errors.add(line, "specification", "the header has no specification column");
  return errors.count > before ? undefined : columns;
}

/** The row as the object a JSONL line would hold; empty cells are left out. */
function rowToRecord(columns: Column[], cells: CsvCell[], errors: ErrorList): Record<string, unknown> | undefined {
  const record: Record<string, unknown> = {};
  const variables: Record<string, unknown> = {};
  const tests: Record<string, unknown> = {};
  const checks: Record<string, unknown> = {};
  let ok = true;
  columns.forEach((column, index) => {
    const cell = cells[index]!;
    if (cell.text.trim() === "") return;
    switch (column.kind) {
      case "key":
      case "specification":
        record[column.kind] = cell.text;
        break;
      case "rubric":
        checks.rubric = cell.text;
        break;
      case "tests_language":
        tests.language = cell.text.trim();
        break;
      case "tests_code":
        tests.code = cell.text;
        break;
      case "variable": {
        const value = typedCell(column.type, cell.text);
        if (value === undefined) {
          errors.add(cell.line, column.header, `${quoted(cell.text)} is not a ${column.type === "number" ? "number" : "boolean (true or false)"}`);
          ok = false;
        } else {
          Object.defineProperty(variables, column.name, { value, enumerable: true, writable: true, configurable: true });
        }
      }
    }
  });
  if (Object.keys(tests).length > 0) checks.tests = tests;
  if (Object.keys(checks).length > 0) record.checks = checks;
  if (Object.keys(variables).length > 0) record.variables = variables;
  return ok ? record : undefined;
}

function typedCell(type: "text" | "number" | "boolean", text: string): string | number | boolean | undefined {
  if (type === "text") return text;
  const trimmed = text.trim();
  if (type === "boolean") return trimmed === "true" ? true : trimmed === "false" ? false : undefined;
  const value = Number(trimmed);
  return NUMBER.test(trimmed) && Number.isFinite(value) ? value : undefined;
}

/** Errors on a row name the column and the line its cell starts on. */
function placeIn(columns: Column[], cells: CsvCell[], rowLine: number): FieldPlace {
  return (path) => {
    const dotted = path.join(".");
    const header = path[0] === "variables" && path[1] !== undefined ? columns.find((c) => c.kind === "variable" && c.name === path[1])?.header : (FIELD_COLUMNS[dotted] ?? dotted);
    const index = columns.findIndex((column) => column.header === header);
    return { line: index >= 0 ? (cells[index]?.line ?? rowLine) : rowLine, field: header ?? dotted };
  };
}

import type { ErrorList } from "./error-list";
import { DATASET_LIMITS } from "./limits";
import { quoted, RESERVED_NAMES, unstorableText, VARIABLE_NAME_PATTERN, CASE_KEY_PATTERN } from "./text-rules";
import { CASE_TEST_LANGUAGES, type CaseChecks, type CaseTestLanguage, type CaseVariableValue, type ParsedCase } from "./types";

/** Where a field of the case being read sits, and how to name it (a CSV column, a YAML path…). */
export type FieldPlace = (path: readonly string[]) => { line: number; field: string };

/** A case read from one record, before keys are made unique across the file. */
export interface CaseDraft {
  /** The key as written, if any. */
  key?: string;
  keyLine: number;
  line: number;
  value: Omit<ParsedCase, "key">;
}

const CASE_FIELDS = new Set(["key", "specification", "variables", "checks"]);
const CHECK_FIELDS = new Set(["tests", "rubric"]);
const TEST_FIELDS = new Set(["language", "code"]);

/** A place where every field is on the record's own line, named by its dotted path. */
export function sameLine(line: number): FieldPlace {
  return (path) => ({ line, field: path.join(".") });
}

/**
 * Checks one record (a parsed JSON object, a YAML mapping, or a CSV row turned into one) against
 * the case shape, reporting every problem with its line and field. Unknown fields are errors, so
 * a misspelt "specificaton" is caught instead of silently dropped.
 */
export function readCase(raw: unknown, line: number, place: FieldPlace, errors: ErrorList): CaseDraft | undefined {
  const before = errors.count;
  const report = (path: readonly string[], message: string) => {
    const at = place(path);
    errors.add(at.line, at.field, message);
  };
  if (!isRecord(raw)) {
    errors.add(line, "record", `must be an object with a specification, not ${describe(raw)}`);
    return undefined;
  }
  for (const name of Object.keys(raw)) {
    if (!CASE_FIELDS.has(name)) report([name], "is not a case field (expected key, specification, variables or checks)");
  }
  const key = readKey(raw.key, report);
  const specification = readText(raw.specification, ["specification"], DATASET_LIMITS.specificationChars, report, { trim: true, required: true });
  const variables = raw.variables === undefined ? undefined : readVariables(raw.variables, report);
  const checks = raw.checks === undefined ? undefined : readChecks(raw.checks, report);
  if (errors.count > before || specification === undefined) return undefined;
  const value: Omit<ParsedCase, "key"> = { specification };
  if (variables && Object.keys(variables).length > 0) value.variables = variables;
  if (checks && (checks.tests || checks.rubric !== undefined)) value.checks = checks;
  return { ...(key !== undefined ? { key } : {}), keyLine: place(["key"]).line, line, value };
}

type Report = (path: readonly string[], message: string) => void;

function readKey(value: unknown, report: Report): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== "string") {
    report(["key"], `must be text, not ${describe(value)}`);
    return undefined;
  }
  const key = text.trim();
  if (key === "") return undefined;
  if (key.length > DATASET_LIMITS.keyChars) report(["key"], `is ${key.length} characters; the limit is ${DATASET_LIMITS.keyChars}`);
  else if (!CASE_KEY_PATTERN.test(key)) report(["key"], `${quoted(key)} may use only letters, digits and . _ : / - (starting with a letter or digit)`);
  else return key;
  return undefined;
}

function readText(value: unknown, path: readonly string[], max: number, report: Report, options: { trim: boolean; required: boolean }): string | undefined {
  if (value === undefined || value === null) {
    if (options.required) report(path, "is required");
    return undefined;
  }
  if (typeof value !== "string") {
    report(path, `must be text, not ${describe(value)}`);
    return undefined;
  }
  const text = options.trim ? value.trim() : value;
  if (text.trim() === "") {
    report(path, "must not be empty");
    return undefined;
  }
  if (text.length > max) {
    report(path, `is ${text.length} characters; the limit is ${max}`);
    return undefined;
  }
  const unstorable = unstorableText(text);
  if (unstorable) {
    report(path, unstorable);
    return undefined;
  }
  return text;
}

function readVariables(value: unknown, report: Report): Record<string, CaseVariableValue> | undefined {
  if (!isRecord(value)) {
    report(["variables"], `must be an object of name: value pairs, not ${describe(value)}`);
    return undefined;
  }
  const names = Object.keys(value);
  if (names.length > DATASET_LIMITS.variables) {
    report(["variables"], `has ${names.length} variables; the limit is ${DATASET_LIMITS.variables}`);
    return undefined;
  }
  const result: Record<string, CaseVariableValue> = {};
  for (const name of names) {
    const path = ["variables", name];
    if (name.length > DATASET_LIMITS.variableNameChars || !VARIABLE_NAME_PATTERN.test(name) || RESERVED_NAMES.has(name)) {
      report(path, `${quoted(name)} is not a variable name (letters, digits and _, not starting with a digit, at most ${DATASET_LIMITS.variableNameChars} characters)`);
      continue;
    }
    const item = value[name];
    if (typeof item === "boolean" || (typeof item === "number" && Number.isFinite(item))) {
      defineOwn(result, name, item);
    } else if (typeof item === "string") {
      const problem = item.length > DATASET_LIMITS.variableTextChars ? `is ${item.length} characters; the limit is ${DATASET_LIMITS.variableTextChars}` : unstorableText(item);
      if (problem) report(path, problem);
      else defineOwn(result, name, item);
    } else {
      report(path, `must be text, a number or true/false, not ${describe(item)}`);
    }
  }
  return result;
}

function readChecks(value: unknown, report: Report): CaseChecks | undefined {
  if (!isRecord(value)) {
    report(["checks"], `must be an object with tests and/or rubric, not ${describe(value)}`);
    return undefined;
  }
  for (const name of Object.keys(value)) {
    if (!CHECK_FIELDS.has(name)) report(["checks", name], "is not a check (expected tests or rubric)");
  }
  const checks: CaseChecks = {};
  if (value.tests !== undefined) {
    const tests = readTests(value.tests, report);
    if (tests) checks.tests = tests;
  }
  if (value.rubric !== undefined) {
    const rubric = readText(value.rubric, ["checks", "rubric"], DATASET_LIMITS.rubricChars, report, { trim: true, required: true });
    if (rubric !== undefined) checks.rubric = rubric;
  }
  return checks;
}

function readTests(value: unknown, report: Report): CaseChecks["tests"] {
  if (!isRecord(value)) {
    report(["checks", "tests"], `must be an object with language and code, not ${describe(value)}`);
    return undefined;
  }
  for (const name of Object.keys(value)) {
    if (!TEST_FIELDS.has(name)) report(["checks", "tests", name], "is not a field of tests (expected language and code)");
  }
  const language = value.language;
  const isLanguage = typeof language === "string" && (CASE_TEST_LANGUAGES as readonly string[]).includes(language);
  if (!isLanguage) {
    const written = typeof language === "string" ? quoted(language) : describe(language);
    report(["checks", "tests", "language"], language === undefined ? `is required (${CASE_TEST_LANGUAGES.join(" or ")})` : `must be ${CASE_TEST_LANGUAGES.join(" or ")}, not ${written}`);
  }
  const code = readText(value.code, ["checks", "tests", "code"], DATASET_LIMITS.testCodeChars, report, { trim: false, required: true });
  return isLanguage && code !== undefined ? { language: language as CaseTestLanguage, code } : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own data property even for a name like "__proto__" (rejected above; this is the second line of defence). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "text";
  return `${typeof value === "number" ? "the number" : "the value"} ${String(value)}`;
}

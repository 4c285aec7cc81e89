/** The languages a case's extra test code may be written in (the sandbox runs these two). */
export const CASE_TEST_LANGUAGES = ["python", "javascript"] as const;
export type CaseTestLanguage = (typeof CASE_TEST_LANGUAGES)[number];

/** Extra checks a case adds to the workflow's own guards for its runs. */
export interface CaseChecks {
  tests?: { language: CaseTestLanguage; code: string };
  rubric?: string;
}

export type CaseVariableValue = string | number | boolean;

/** One case of a dataset: a specification, optional variable values and optional extra checks. */
export interface ParsedCase {
  /** Stable across versions (generated from the position when the file gives none). */
  key: string;
  specification: string;
  variables?: Record<string, CaseVariableValue>;
  checks?: CaseChecks;
}

/**
 * One thing wrong with a dataset file. `line` is 1-based; 0 means the file as a whole.
 * `field` names the case field ("specification", "variables.language", a CSV column), or
 * "record" for a line that is not a case at all, or "file".
 */
export interface DatasetFileError {
  line: number;
  field: string;
  message: string;
}

export type ParseDatasetResult = { ok: true; cases: ParsedCase[] } | { ok: false; errors: DatasetFileError[] };

/** Where a dataset version's change came from (DatasetVersion.source). */
export const DATASET_VERSION_SOURCES = ["upload", "manual", "run", "escalation"] as const;
export type DatasetVersionSource = (typeof DATASET_VERSION_SOURCES)[number];

/**
 * Bounds on what a dataset may hold, far above honest use: they keep a hostile file or request
 * from costing more than a large real one. Field limits match what a run accepts.
 */
export const DATASET_LIMITS = {
  /** UTF-8 bytes of an uploaded file. */
  fileBytes: 4 * 1024 * 1024,
  cases: 5_000,
  /** Errors listed before the rest are counted in one summary line. */
  errors: 50,
  keyChars: 128,
  /** As a run's specification (server/api/schemas/run.ts). */
  specificationChars: 100_000,
  variables: 50,
  variableNameChars: 64,
  variableTextChars: 10_000,
  testCodeChars: 100_000,
  rubricChars: 10_000,
  /** CSV columns: the fixed ones and one per variable. */
  csvColumns: 60,
  datasetNameChars: 100,
  descriptionChars: 2_000,
} as const;

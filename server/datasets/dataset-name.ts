import { DATASET_LIMITS } from "./limits";

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/;

/** Why `name` cannot name a dataset, or undefined when it can (it is used trimmed). */
export function datasetNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === "") return "must not be empty";
  if (trimmed.length > DATASET_LIMITS.datasetNameChars) return `is ${trimmed.length} characters; the limit is ${DATASET_LIMITS.datasetNameChars}`;
  if (!NAME_PATTERN.test(trimmed)) return "may use only letters, digits, spaces and . _ - (starting with a letter or digit)";
  return undefined;
}

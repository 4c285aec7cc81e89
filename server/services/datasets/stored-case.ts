import type { CaseChecks, CaseVariableValue } from "@/server/datasets/types";
import type { VersionCase } from "./create-dataset-version";

/** A DatasetCase row as read back: its JSON columns hold what createDatasetVersion checked and wrote. */
export interface CaseRow {
  key: string;
  specification: string;
  variables: unknown;
  checks: unknown;
  sourceRunId: string | null;
  sourceEscalationId: string | null;
}

export const CASE_ROW_SELECT = { key: true, specification: true, variables: true, checks: true, sourceRunId: true, sourceEscalationId: true } as const;

/** The row as a case to carry into the next version (its sources kept). */
export function toVersionCase(row: CaseRow): VersionCase {
  return {
    key: row.key,
    specification: row.specification,
    ...(isObject(row.variables) ? { variables: row.variables as Record<string, CaseVariableValue> } : {}),
    ...(isObject(row.checks) ? { checks: row.checks as CaseChecks } : {}),
    ...(row.sourceRunId ? { sourceRunId: row.sourceRunId } : {}),
    ...(row.sourceEscalationId ? { sourceEscalationId: row.sourceEscalationId } : {}),
  };
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `base`, or `base-2`, `base-3`… : the first not in `taken`. */
export function unusedKey(base: string, taken: ReadonlySet<string>): string {
  let key = base;
  for (let suffix = 2; taken.has(key); suffix++) key = `${base}-${suffix}`;
  return key;
}

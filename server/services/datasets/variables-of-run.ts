import type { CaseVariableValue } from "@/server/datasets/types";

/** A run's context values as case variables: only text, finite numbers and booleans carry over. */
export function variablesOfRun(contextValues: unknown): Record<string, CaseVariableValue> | undefined {
  if (typeof contextValues !== "object" || contextValues === null || Array.isArray(contextValues)) return undefined;
  const variables: Record<string, CaseVariableValue> = {};
  for (const [name, value] of Object.entries(contextValues)) {
    if (typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) variables[name] = value;
  }
  return Object.keys(variables).length > 0 ? variables : undefined;
}

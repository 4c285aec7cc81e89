import type { CaseVariableValue } from "@/server/datasets/types";

/** Variables as the JSON text the case form edits ("" for none). */
export function variablesText(variables: Record<string, CaseVariableValue> | null | undefined): string {
  return variables && Object.keys(variables).length > 0 ? JSON.stringify(variables) : "";
}

/** The form's variables text read back: empty means none; anything else must be a flat JSON object. */
export function readVariablesText(text: string): { ok: true; variables?: Record<string, CaseVariableValue> } | { ok: false; problem: string } {
  if (text.trim() === "") return { ok: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'must be a JSON object such as {"language": "python"}' };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, problem: 'must be a JSON object such as {"language": "python"}' };
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean") return { ok: false, problem: `${name} must be text, a number or true/false` };
  }
  return { ok: true, variables: value as Record<string, CaseVariableValue> };
}

import { Ajv } from "ajv";
import { linearRegExp } from "./linear-regexp.mjs";
import { schemaProblem } from "./schema-bounds";

/** Verdicts on schemas already checked, by their JSON: a guard is built on every turn of its run, and a compile costs milliseconds. */
const checked = new Map<string, string | undefined>();
const MAX_CHECKED = 256;

/**
 * Why a json_schema guard's schema cannot be used, or undefined: out of bounds (schema-bounds.ts)
 * or not a schema ajv compiles (an unknown type, a pattern RE2 refuses). The guard refuses to be
 * built with it, and the validator reports it at the guard's `schema` before any run.
 */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  const problem = schemaProblem(schema);
  if (problem) return problem;
  // Within its bounds (above), the schema's JSON is small enough to key the cache with.
  const key = JSON.stringify(schema);
  if (checked.has(key)) return checked.get(key);
  const verdict = compileProblem(schema);
  if (checked.size >= MAX_CHECKED) checked.delete(checked.keys().next().value!);
  checked.set(key, verdict);
  return verdict;
}

function compileProblem(schema: unknown): string | undefined {
  if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) return "must be a JSON Schema object";
  try {
    new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } }).compile(schema);
  } catch (error) {
    return `not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}

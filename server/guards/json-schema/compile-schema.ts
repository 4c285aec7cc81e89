import { Ajv } from "ajv";
import { linearRegExp } from "./linear-regexp.mjs";
import { schemaProblem } from "./schema-bounds";

/**
 * Why a json_schema guard's schema cannot be used, or undefined: out of bounds (schema-bounds.ts)
 * or not a schema ajv compiles (an unknown type, a pattern RE2 refuses). The guard refuses to be
 * built with it, and the validator reports it at the guard's `schema` before any run.
 */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  const problem = schemaProblem(schema);
  if (problem) return problem;
  if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) return "must be a JSON Schema object";
  try {
    new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } }).compile(schema);
  } catch (error) {
    return `not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}

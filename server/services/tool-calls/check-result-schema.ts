import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { linearRegExp } from "@/server/guards/json-schema/linear-regexp.mjs";
import { schemaProblem } from "@/server/guards/json-schema/schema-bounds";
import type { JsonObject } from "@/server/engine";
import { conflict, ServiceError } from "../errors";

// Patterns on RE2 (linear time), as the tool registry's. One engine per schema: ajv keeps every
// schema it compiled by its $id, and two workflows may well use the same $id for different schemas.
const newAjv = () => new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
// Compiled schemas by their JSON: a wait's schema is checked on every report, and a workflow's
// tools share a handful of schemas. Bounded, oldest dropped first.
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 64;
const MAX_PROBLEMS = 5;

function validatorFor(schema: JsonObject, callId: string): ValidateFunction {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) return known;
  // The engine checked the schema when the wait was made; a row that says otherwise is not the reporter's fault.
  const problem = schemaProblem(schema);
  if (problem) throw conflict(`Tool call ${callId}: its result schema cannot be used (${problem}); the workflow's tool must be fixed`);
  let validate: ValidateFunction;
  try {
    validate = newAjv().compile(schema);
  } catch (error) {
    throw conflict(`Tool call ${callId}: its result schema does not compile (${error instanceof Error ? error.message : String(error)}); the workflow's tool must be fixed`);
  }
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, validate);
  return validate;
}

/** `answer.city`, `answer.items[2]`: where a problem is, written from the root the caller names. */
function fieldPath(root: string, error: ErrorObject): string {
  return `${root}${error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment.slice(0, 64)}`))
    .join("")}`;
}

/** One problem, naming its field: `answer.city: is required`, `result.count: must be integer`. */
export function describeSchemaProblem(root: string, error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `${fieldPath(root, error)}.${String(params.missingProperty).slice(0, 64)}: is required`;
  if (error.keyword === "additionalProperties") return `${fieldPath(root, error)}.${String(params.additionalProperty).slice(0, 64)}: is not a field of this tool's result`;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `${fieldPath(root, error)}: must be one of ${params.allowedValues.slice(0, 10).map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return `${fieldPath(root, error)}: ${error.message ?? "is invalid"}`;
}

/**
 * Checks `value` against a wait's `resultSchema` (none: any object). Throws INVALID_INPUT whose
 * message names each field at fault (up to five), e.g. `answer.approved: must be boolean`.
 */
export function checkResultSchema(root: string, schema: JsonObject | null, value: JsonObject, callId: string): void {
  if (schema === null) return;
  const validate = validatorFor(schema, callId);
  if (validate(value)) return;
  const problems = (validate.errors ?? []).slice(0, MAX_PROBLEMS).map((error) => describeSchemaProblem(root, error));
  throw new ServiceError("INVALID_INPUT", problems.join("; "));
}

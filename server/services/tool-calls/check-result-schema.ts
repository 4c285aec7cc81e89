import { Ajv, type ErrorObject } from "ajv";
import { linearRegExp } from "@/server/guards/json-schema/linear-regexp.mjs";
import { checkInWorker, type SchemaViolation } from "@/server/guards/json-schema/schema-check-worker";
import { schemaProblem } from "@/server/guards/json-schema/schema-bounds";
import type { JsonObject } from "@/server/engine";
import { conflict, invalidInput, ServiceError } from "../errors";

// Patterns on RE2 (linear time), as the tool registry's. One engine per schema: ajv keeps every
// schema it compiled by its $id, and two workflows may well use the same $id for different schemas.
const newAjv = () => new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
// Schemas known to compile, by their JSON: a wait's schema is checked on every report, and a
// workflow's tools share a handful of schemas. Bounded, oldest dropped first.
const usable = new Set<string>();
const MAX_KNOWN = 64;
const MAX_PROBLEMS = 5;
/**
 * A check runs in a worker thread (the json_schema guard's) and is given up after this long: some
 * checks cost more than linear time whatever the regex engine (uniqueItems over thousands of lists
 * compares every pair: a 256 KiB result held the web server's event loop for most of a minute).
 */
export const RESULT_CHECK_TIMEOUT_MS = 5_000;

/** The schema's JSON once it is known to be usable, else CONFLICT: the workflow's tool must be fixed. */
function usableSchema(schema: JsonObject, callId: string): string {
  const key = JSON.stringify(schema);
  if (usable.has(key)) return key;
  // The engine checked the schema when the wait was made; a row that says otherwise is not the reporter's fault.
  const problem = schemaProblem(schema);
  if (problem) throw conflict(`Tool call ${callId}: its result schema cannot be used (${problem}); the workflow's tool must be fixed`);
  try {
    newAjv().compile(schema);
  } catch (error) {
    throw conflict(`Tool call ${callId}: its result schema does not compile (${error instanceof Error ? error.message : String(error)}); the workflow's tool must be fixed`);
  }
  if (usable.size >= MAX_KNOWN) usable.delete(usable.keys().next().value!);
  usable.add(key);
  return key;
}

/** `answer.city`, `answer.items[2]`: where a problem is, written from the root the caller names. */
function fieldPath(root: string, error: Pick<ErrorObject, "instancePath">): string {
  return `${root}${error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment.slice(0, 64)}`))
    .join("")}`;
}

/** One problem, naming its field: `answer.city: is required`, `result.count: must be integer`. */
export function describeSchemaProblem(root: string, error: ErrorObject | SchemaViolation): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `${fieldPath(root, error)}.${String(params.missingProperty).slice(0, 64)}: is required`;
  if (error.keyword === "additionalProperties") return `${fieldPath(root, error)}.${String(params.additionalProperty).slice(0, 64)}: is not a field of this tool's result`;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `${fieldPath(root, error)}: must be one of ${params.allowedValues.slice(0, 10).map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return `${fieldPath(root, error)}: ${error.message ?? "is invalid"}`;
}

/**
 * Checks `value` against a wait's `resultSchema` (none: any object), off the event loop and within
 * RESULT_CHECK_TIMEOUT_MS. Throws INVALID_INPUT whose message names each field at fault (up to
 * five), e.g. `answer.approved: must be boolean`, or says the check took too long.
 */
export async function checkResultSchema(root: string, schema: JsonObject | null, value: JsonObject, callId: string, timeoutMs = RESULT_CHECK_TIMEOUT_MS): Promise<void> {
  if (schema === null) return;
  const schemaText = usableSchema(schema, callId);
  const outcome = await checkInWorker(schemaText, JSON.stringify(value), timeoutMs);
  switch (outcome.kind) {
    case "passed":
      return;
    case "failed":
      throw new ServiceError("INVALID_INPUT", outcome.errors.slice(0, MAX_PROBLEMS).map((error) => describeSchemaProblem(root, error)).join("; "));
    case "timeout":
      throw invalidInput(root, `could not be checked against the tool's result schema within ${timeoutMs / 1000} s; send a smaller result`);
    case "invalid-json":
    case "error":
      // The value was serialized here and the schema compiled here: the worker itself failed.
      throw new Error(`Tool call ${callId}: the result schema check failed (${outcome.kind === "error" ? outcome.message : "invalid JSON"})`);
  }
}

import { Ajv } from "ajv";
import { schemaProblem } from "../../../engine/policy/input-bounds";
import { linearRegExp } from "../../../guards/json-schema/linear-regexp.mjs";

/**
 * Why a tool's schema cannot be used, or undefined: the bounds the agent's registry enforces
 * (size, depth, no remote $ref; input-bounds.ts), then a compile with the registry's own ajv
 * options, patterns on the linear-time engine (a pattern RE2 refuses does not compile). So a
 * document that validates never fails when its tools are registered.
 */
export function toolSchemaProblem(schema: unknown): string | undefined {
  const problem = schemaProblem(schema, true);
  if (problem) return problem.replace(/^the input schema/, "the schema");
  try {
    new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } }).compile(schema as object);
  } catch (error) {
    return `not a valid JSON Schema: ${(error instanceof Error ? error.message : String(error)).slice(0, 300)}`;
  }
  return undefined;
}

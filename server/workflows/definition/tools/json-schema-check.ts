import { Ajv } from "ajv";
import { schemaProblem } from "../../../engine/policy/input-bounds";
import { linearRegExp } from "../../../guards/json-schema/linear-regexp.mjs";

/**
 * One compiler for every check: a new Ajv compiles its meta-schemas first (tens of milliseconds),
 * which the editor's live check would pay for each schema of each keystroke. Each schema is
 * removed again after its check, so nothing accumulates and an `$id` never clashes with the last.
 */
let compiler: Ajv | undefined;

/**
 * Why a tool's schema cannot be used, or undefined: the bounds the agent's registry enforces
 * (size, depth, no remote $ref; input-bounds.ts), then a compile with the registry's own ajv
 * options, patterns on the linear-time engine (a pattern RE2 refuses does not compile). So a
 * document that validates never fails when its tools are registered.
 */
export function toolSchemaProblem(schema: unknown): string | undefined {
  const problem = schemaProblem(schema, true);
  if (problem) return problem.replace(/^the input schema/, "the schema");
  compiler ??= new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
  try {
    compiler.compile(schema as object);
  } catch (error) {
    return `not a valid JSON Schema: ${(error instanceof Error ? error.message : String(error)).slice(0, 300)}`;
  } finally {
    compiler.removeSchema(schema as object);
  }
  return undefined;
}

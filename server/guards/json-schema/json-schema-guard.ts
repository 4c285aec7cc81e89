import { Ajv, type ErrorObject } from "ajv";
import ts from "typescript";
import { failed, passed, type Guard } from "../../engine";
import { GuardSpecError } from "../guard-spec";

const MAX_VIOLATIONS = 20;

function describeViolation(error: ErrorObject): string {
  const path = error.instancePath || "/";
  const detail =
    error.keyword === "additionalProperties"
      ? `${error.message} "${String((error.params as { additionalProperty?: string }).additionalProperty)}"`
      : error.keyword === "enum"
        ? `${error.message}: ${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)}`
        : error.message;
  return `- ${path}: ${detail ?? error.keyword}`;
}

/**
 * JSON.parse's message with the line and column of the problem. V8 only sometimes names a
 * position, so the location comes from the TypeScript JSON parser, which always has one.
 */
function describeParseError(content: string, error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 200);
  const { error: diagnostic } = ts.parseConfigFileTextToJson("artifact.json", content);
  if (diagnostic?.start === undefined) return message;
  const before = content.slice(0, diagnostic.start);
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${message} (line ${line}, column ${column})`;
}

/**
 * The artifact must parse as JSON and match a JSON Schema (ajv, all errors). The schema is
 * compiled once, when the guard is built, so a broken schema is reported before any run.
 */
export function createJsonSchemaGuard(schema: boolean | Record<string, unknown>): Guard {
  const ajv = new Ajv({ allErrors: true, strict: false });
  let validate: ReturnType<Ajv["compile"]>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new GuardSpecError(`guard.schema: not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    async validate(artifact) {
      let data: unknown;
      try {
        data = JSON.parse(artifact.content);
      } catch (error) {
        return failed(`Not valid JSON: ${describeParseError(artifact.content, error)}`);
      }
      if (validate(data)) return passed();
      const errors = validate.errors ?? [];
      const lines = errors.slice(0, MAX_VIOLATIONS).map(describeViolation);
      if (errors.length > MAX_VIOLATIONS) lines.push(`- (and ${errors.length - MAX_VIOLATIONS} more)`);
      return failed(`The JSON does not match the schema (${errors.length} violation${errors.length === 1 ? "" : "s"}):\n${lines.join("\n")}`);
    },
  };
}

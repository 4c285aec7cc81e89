import ts from "typescript";
import { failed, passed, type Guard } from "../../engine";
import { GuardSpecError } from "../guard-spec";
import { jsonSchemaProblem } from "./compile-schema";
import { checkInWorker, prewarmSchemaWorker, type SchemaViolation } from "./schema-check-worker";

const MAX_VIOLATIONS = 20;
/** Larger artifacts are refused unread: the check's cost grows with the artifact. */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;
export const DEFAULT_JSON_SCHEMA_TIMEOUT_MS = 15_000;

function describeViolation(error: SchemaViolation): string {
  const path = error.instancePath || "/";
  const detail =
    error.keyword === "additionalProperties"
      ? `${error.message} "${String(error.params.additionalProperty)}"`
      : error.keyword === "enum"
        ? `${error.message}: ${JSON.stringify(error.params.allowedValues)}`
        : error.message;
  return `- ${path}: ${detail ?? error.keyword}`;
}

/**
 * JSON.parse's message with the line and column of the problem. V8 only sometimes names a
 * position, so the location comes from the TypeScript JSON parser, which always has one.
 */
function describeParseError(content: string): string {
  let message = "";
  try {
    JSON.parse(content);
  } catch (error) {
    message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 200);
  }
  const { error: diagnostic } = ts.parseConfigFileTextToJson("artifact.json", content);
  if (diagnostic?.start === undefined) return message;
  const before = content.slice(0, diagnostic.start);
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${message} (line ${line}, column ${column})`;
}

export interface JsonSchemaGuardOptions {
  /** The check's worker thread is killed after this (the guard's timeout_ms). */
  readonly timeoutMs?: number;
}

/**
 * The artifact must parse as JSON and match a JSON Schema (ajv, all errors). The schema is
 * bounded (size, depth, RE2-compatible patterns) and compiled once, when the guard is built, so a
 * broken schema is reported before any run. The check itself runs in a worker thread with RE2 as
 * its regular-expression engine, killed at the time limit: no schema and no artifact can stall
 * the event loop of the worker executing the run.
 */
export function createJsonSchemaGuard(schema: boolean | Record<string, unknown>, options: JsonSchemaGuardOptions = {}): Guard {
  const problem = jsonSchemaProblem(schema);
  if (problem) throw new GuardSpecError(`guard.schema: ${problem}`);
  prewarmSchemaWorker();
  const schemaText = JSON.stringify(schema);
  const timeoutMs = options.timeoutMs ?? DEFAULT_JSON_SCHEMA_TIMEOUT_MS;
  return {
    async validate(artifact, _dependencies, call) {
      if (Buffer.byteLength(artifact.content, "utf8") > MAX_JSON_BYTES) return failed(`The artifact is larger than ${MAX_JSON_BYTES / 1024 / 1024} MiB, the most the json_schema guard checks`);
      const outcome = await checkInWorker(schemaText, artifact.content, timeoutMs, call?.signal);
      switch (outcome.kind) {
        case "passed":
          return passed();
        case "invalid-json":
          return failed(`Not valid JSON: ${describeParseError(artifact.content)}`);
        case "timeout":
          return failed(`The json_schema check did not finish within ${timeoutMs} ms and was stopped`);
        case "error":
          return failed(`The json_schema check could not run: ${outcome.message}`);
        case "failed": {
          const lines = outcome.errors.slice(0, MAX_VIOLATIONS).map(describeViolation);
          if (outcome.count > MAX_VIOLATIONS) lines.push(`- (and ${outcome.count - MAX_VIOLATIONS} more)`);
          return failed(`The JSON does not match the schema (${outcome.count} violation${outcome.count === 1 ? "" : "s"}):\n${lines.join("\n")}`);
        }
      }
    },
  };
}

/**
 * Worker thread that checks JSON against a JSON Schema, so that the check runs outside the
 * worker's event loop: some checks cost more than linear time whatever the regex engine
 * (uniqueItems on thousands of objects compares every pair), and the host kills this thread
 * when the guard's time limit passes instead of waiting for it.
 *
 * Protocol: first { ready: true } once loaded (the host starts a check's clock only then: starting
 * is not the check's cost); then each message { id, schema (JSON text), content }; each reply { id, outcome } with
 * outcome { kind: "passed" } | { kind: "invalid-json" } | { kind: "failed", count, errors }
 * (the first few errors only, as plain objects). Compiled schemas are kept, a few at a time.
 */
import { parentPort } from "node:worker_threads";
import AjvModule from "ajv";
import { linearRegExp } from "./linear-regexp.mjs";

const Ajv = AjvModule.default ?? AjvModule;
const MAX_ERRORS_SENT = 21;
const MAX_CACHED_SCHEMAS = 16;
const compiled = new Map();

function validatorFor(schemaText) {
  let validate = compiled.get(schemaText);
  if (!validate) {
    const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
    validate = ajv.compile(JSON.parse(schemaText));
    if (compiled.size >= MAX_CACHED_SCHEMAS) compiled.delete(compiled.keys().next().value);
    compiled.set(schemaText, validate);
  }
  return validate;
}

function check({ schema, content }) {
  let data;
  try {
    data = JSON.parse(content);
  } catch {
    return { kind: "invalid-json" };
  }
  const validate = validatorFor(schema);
  if (validate(data)) return { kind: "passed" };
  const errors = validate.errors ?? [];
  return {
    kind: "failed",
    count: errors.length,
    errors: errors.slice(0, MAX_ERRORS_SENT).map((error) => ({ instancePath: error.instancePath, keyword: error.keyword, message: error.message, params: JSON.parse(JSON.stringify(error.params ?? {})) })),
  };
}

parentPort.on("message", (job) => {
  let outcome;
  try {
    outcome = check(job);
  } catch (error) {
    outcome = { kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage({ id: job.id, outcome });
});
parentPort.postMessage({ ready: true });

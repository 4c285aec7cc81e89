/**
 * The bounds of what a policy is handed and described with. A payload may be written by a model
 * and a schema by a workflow's author, so both are measured before anything parses or compiles
 * them, and every limit is named in the refusal.
 */
import type { JsonObject } from "../ports/call-ledger";

export const MAX_INPUT_BYTES = 1024 * 1024;
export const MAX_INPUT_DEPTH = 64;
export const MAX_SCHEMA_BYTES = 64 * 1024;
export const MAX_SCHEMA_DEPTH = 32;

/** How deep a JSON value nests, walked without recursion, stopping once past `limit`. */
export function depthExceeds(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * A policy's input as an object, from an object or from JSON text a model wrote, or the reason it
 * is refused. The text is never quoted back: it may be huge.
 */
export function readInput(name: string, raw: JsonObject | string, maxBytes: number): { ok: true; input: JsonObject } | { ok: false; message: string } {
  let value: unknown = raw;
  if (typeof raw === "string") {
    const size = bytes(raw);
    if (size > maxBytes) return { ok: false, message: `The arguments of ${name} are ${size} bytes, more than the ${maxBytes} allowed.` };
    if (raw.trim() === "") value = {};
    else {
      try {
        value = JSON.parse(raw);
      } catch {
        return { ok: false, message: `The arguments of ${name} are not valid JSON (${size} bytes): send one JSON object matching the tool's input schema.` };
      }
    }
  } else {
    // Depth first: serializing a value nested a million deep would overflow the stack.
    if (depthExceeds(raw, MAX_INPUT_DEPTH)) return { ok: false, message: `The arguments of ${name} nest deeper than ${MAX_INPUT_DEPTH} levels.` };
    const size = bytes(JSON.stringify(raw));
    if (size > maxBytes) return { ok: false, message: `The input of ${name} is ${size} bytes, more than the ${maxBytes} allowed.` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, message: `The arguments of ${name} must be one JSON object.` };
  if (depthExceeds(value, MAX_INPUT_DEPTH)) return { ok: false, message: `The arguments of ${name} nest deeper than ${MAX_INPUT_DEPTH} levels.` };
  return { ok: true, input: value as JsonObject };
}

const REFERENCE_KEYWORDS = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/**
 * Whether `uniqueItems` under this array schema is checked in linear time: ajv hashes the items
 * when `items` declares only scalar types, and otherwise compares every pair, every time (checks
 * collect all errors, so a `maxItems` beside it does not stop the comparison): a model's 256 KiB
 * argument list then holds the worker's thread for seconds.
 */
function uniqueItemsIsLinear(arraySchema: Record<string, unknown>): boolean {
  const items = arraySchema.items;
  if (typeof items !== "object" || items === null || Array.isArray(items)) return false;
  const type = (items as Record<string, unknown>).type;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((name) => typeof name === "string" && SCALAR_TYPES.has(name));
}

/**
 * Why a policy's input schema cannot be used, or undefined: too large, too deep, a reference to
 * anything but itself (a remote $ref would make compiling fetch or fail), `uniqueItems` over items
 * that are not scalars (quadratic in the input), or a `pattern` when no linear-time
 * regular-expression engine was given (a backtracking one can be made to run for ever).
 */
export function schemaProblem(schema: unknown, linearPatterns: boolean): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "the input schema must be a JSON Schema object";
  const text = JSON.stringify(schema);
  if (bytes(text) > MAX_SCHEMA_BYTES) return `the input schema is larger than ${MAX_SCHEMA_BYTES / 1024} KiB`;
  if (depthExceeds(schema, MAX_SCHEMA_DEPTH)) return `the input schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
  const stack: { value: unknown; path: string }[] = [{ value: schema, path: "" }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const at = `${path}/${key.slice(0, 40)}`;
      if (!Array.isArray(value) && REFERENCE_KEYWORDS.has(key) && !(typeof child === "string" && child.startsWith("#"))) {
        return `${at}: only references inside the schema ("#/...") are allowed, never a remote one`;
      }
      if (!Array.isArray(value) && key === "uniqueItems" && child === true && !uniqueItemsIsLinear(value as Record<string, unknown>)) {
        return `${at}: uniqueItems needs "items" with a scalar "type" (string, number, integer, boolean or null); over objects or arrays it compares every pair of items`;
      }
      if (!Array.isArray(value) && (key === "pattern" || key === "patternProperties") && !linearPatterns) {
        return `${at}: patterns need the registry's linear-time regular-expression engine, and none was given`;
      }
      stack.push({ value: child, path: at });
    }
  }
  return undefined;
}

/**
 * A call's payload as the ledger's action_call entry keeps it: as given when within `maxBytes`,
 * otherwise only its size (a refused multi-megabyte argument is not worth a row of its own).
 */
export function recordedPayload(raw: JsonObject | string, maxBytes: number): JsonObject {
  if (typeof raw === "string") {
    const size = bytes(raw);
    return size <= maxBytes ? { arguments: raw } : { argumentsBytes: size };
  }
  if (depthExceeds(raw, MAX_INPUT_DEPTH)) return { payloadDepthOver: MAX_INPUT_DEPTH };
  const size = bytes(JSON.stringify(raw));
  return size <= maxBytes ? raw : { payloadBytes: size };
}

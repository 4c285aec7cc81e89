import type { JsonObject } from "@/server/engine";
import { depthExceeds, MAX_INPUT_DEPTH } from "@/server/engine";
import { invalidInput } from "../errors";

/** A reported result or a person's answer becomes a ledger row and is replayed to a model: bounded. */
export const MAX_RESULT_BYTES = 256 * 1024;

/**
 * `value` as a JSON object within the bounds, or an INVALID_INPUT error naming `field`: one JSON
 * object (not an array, a string or null), at most MAX_RESULT_BYTES of UTF-8 JSON, nested at most
 * MAX_INPUT_DEPTH levels. Never quotes the value back: it may be huge.
 */
export function boundedResult(field: string, value: unknown): JsonObject {
  if (value === undefined) throw invalidInput(field, "is missing: send one JSON object");
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidInput(field, `must be one JSON object, not ${value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`}`);
  }
  // Depth first: serializing a value nested a million deep would overflow the stack.
  if (depthExceeds(value, MAX_INPUT_DEPTH)) throw invalidInput(field, `nests deeper than ${MAX_INPUT_DEPTH} levels`);
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    throw invalidInput(field, "is not JSON (it holds a value JSON cannot write)");
  }
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_RESULT_BYTES) throw invalidInput(field, `is ${size} bytes of JSON, more than the ${MAX_RESULT_BYTES / 1024} KiB allowed`);
  // Round-tripped: what is stored and replayed is exactly what JSON keeps (no undefined, no functions, no class instances).
  return JSON.parse(text) as JsonObject;
}

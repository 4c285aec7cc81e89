import { randomUUID } from "node:crypto";

/** Identity is injected so tests can predict ids. */
export type IdGenerator = () => string;

export const randomIds: IdGenerator = () => randomUUID();

/** Deterministic ids for tests: prefix-1, prefix-2, ... */
export function sequentialIds(prefix = "artifact"): IdGenerator {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

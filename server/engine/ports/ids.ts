import { randomUUID } from "node:crypto";

/**
 * Identity is injected so tests can predict ids. `key` names what the id is for, unique in the
 * run ("implement/attempt-2"): a durable store derives the id from it, so a resumed run that
 * regenerates an attempt gets the same id instead of a second row.
 */
export type IdGenerator = (key?: string) => string;

export const randomIds: IdGenerator = () => randomUUID();

/** Deterministic ids for tests: prefix-1, prefix-2, ... */
export function sequentialIds(prefix = "artifact"): IdGenerator {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

import { createHash, randomUUID } from "node:crypto";

/**
 * A time-ordered UUID (version 7 layout): rows inserted one after another land next to each other
 * in the primary key's B-tree, so a commit dirties fewer pages than with random ids.
 */
export function timeOrderedId(now = Date.now()): string {
  const hex = now.toString(16).padStart(12, "0") + randomUUID().replace(/-/g, "").slice(12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A stable id for what `key` names in the run: a regenerated attempt keeps its id. It starts with
 * the run id's time prefix (runs have time-ordered ids), so a run's artifacts sit together in the
 * primary key's B-tree instead of dirtying a random page each.
 */
export function derivedId(runId: string, key: string): string {
  const hash = createHash("sha256").update(`${runId}\u0000${key}`).digest("hex");
  const prefix = /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(runId) ? runId.slice(0, 8) + runId.slice(9, 13) : hash.slice(0, 12);
  const hex = prefix + hash.slice(12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

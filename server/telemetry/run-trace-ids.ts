import { createHash } from "node:crypto";

/**
 * A run's trace and its root span have ids derived from the run id, so every turn of the run, in
 * whichever worker process, joins the same trace without reading anything first, and the turn
 * that ends the run can emit the root span the others already point at.
 */
function digest(runId: string): string {
  return createHash("sha256").update(`dualstate-run:${runId}`).digest("hex");
}

/** 32 hex characters, never all zeros (an invalid trace id). */
export function traceIdOf(runId: string): string {
  const id = digest(runId).slice(0, 32);
  return /^0+$/.test(id) ? `${id.slice(0, 31)}1` : id;
}

/** 16 hex characters, never all zeros (an invalid span id). */
export function runSpanIdOf(runId: string): string {
  const id = digest(runId).slice(32, 48);
  return /^0+$/.test(id) ? `${id.slice(0, 15)}1` : id;
}

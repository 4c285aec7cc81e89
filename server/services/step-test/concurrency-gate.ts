import { tooManyRequests } from "../errors";

type Running = Map<string, number>;

// On globalThis: Next.js may load this module in more than one server chunk, and the limit must
// count every test of a person in this process.
const globalForGate = globalThis as unknown as { dualstateStepTests?: Running };

/**
 * Holds one of `limit` slots for `owner` while `work` runs; refuses at once (TOO_MANY_REQUESTS)
 * when all of them are taken rather than queueing, so a person cannot pile up waiting sandboxes.
 */
export async function withConcurrencySlot<T>(owner: string, limit: number, work: () => Promise<T>, running: Running = (globalForGate.dualstateStepTests ??= new Map())): Promise<T> {
  const held = running.get(owner) ?? 0;
  if (held >= limit) throw tooManyRequests(`You already have ${held} step test${held === 1 ? "" : "s"} running (at most ${limit} at once); wait for one to finish or cancel it`);
  running.set(owner, held + 1);
  try {
    return await work();
  } finally {
    const left = (running.get(owner) ?? 1) - 1;
    if (left <= 0) running.delete(owner);
    else running.set(owner, left);
  }
}

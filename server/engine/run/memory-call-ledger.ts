import { randomUUID } from "node:crypto";
import { CallFailedError, type CallIdentity, type CallLedger, type CallOutcome, type JsonObject } from "../ports/call-ledger";
import { callIdentity } from "./idempotency-key";

export interface MemoryLedgerStep {
  readonly key: string | null;
  readonly actor: string;
  readonly type: "action_call" | "action_result" | "text";
  readonly payload: JsonObject;
}

/**
 * A CallLedger kept in memory, for runs that need no durability (dry runs, tests) and as the
 * reference the database-backed ledger is checked against.
 */
export class MemoryCallLedger implements CallLedger {
  readonly steps: MemoryLedgerStep[] = [];
  readonly #results = new Map<string, CallOutcome>();
  readonly #notes = new Set<string>();

  /** The run this ledger stands for: idempotency keys differ between two ledgers. */
  constructor(readonly ledgerId: string = randomUUID()) {}

  async call(key: string, request: Parameters<CallLedger["call"]>[1], perform: (identity?: CallIdentity) => Promise<JsonObject>): Promise<CallOutcome> {
    const recorded = this.#results.get(key);
    if (recorded) return { ...recorded, replayed: true };
    const identity = callIdentity(this.ledgerId, key);
    this.steps.push({ key, actor: request.actor, type: "action_call", payload: { policy: request.policy, payload: request.payload, idempotencyKey: identity.idempotencyKey } });
    let outcome: CallOutcome;
    try {
      outcome = { ok: true, result: await perform(identity), replayed: false };
    } catch (error) {
      if (!(error instanceof CallFailedError)) throw error;
      outcome = { ok: false, error: { error: true, code: error.code, message: error.message }, replayed: false };
    }
    this.steps.push({ key, actor: request.policy, type: "action_result", payload: outcome.ok ? outcome.result : { ...outcome.error } });
    this.#results.set(key, outcome);
    return outcome;
  }

  /**
   * Records the result of a call that waits (a person's answer, an outside report), as the
   * durable store's report does: once per key; false, and nothing changes, when the key has one.
   */
  report(key: string, result: JsonObject): boolean {
    if (this.#results.has(key)) return false;
    const failed = result.error === true && typeof result.code === "string" && typeof result.message === "string";
    const outcome: CallOutcome = failed ? { ok: false, error: { error: true, code: String(result.code), message: String(result.message) }, replayed: false } : { ok: true, result, replayed: false };
    this.steps.push({ key, actor: "report", type: "action_result", payload: result });
    this.#results.set(key, outcome);
    return true;
  }

  async note(key: string, actor: string, text: string): Promise<void> {
    if (this.#notes.has(key)) return;
    this.#notes.add(key);
    this.steps.push({ key, actor, type: "text", payload: { text } });
  }
}

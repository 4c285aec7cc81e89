import { CallFailedError, callIdentity, RunNotFoundError, type CallIdentity, type CallLedger, type CallOutcome, type CallRequest, type JsonObject } from "../engine";
import { appendLedgerEntry } from "./append-ledger-entry";
import type { Db } from "./db";
import { isMissingReference, isUniqueViolation } from "./prisma-errors";

// Results and notes share the (runId, callKey) index, so their keys live in separate namespaces.
const resultKey = (key: string) => `result:${key}`;
const noteKey = (key: string) => `note:${key}`;

function isCallError(payload: JsonObject): boolean {
  return payload.error === true && typeof payload.code === "string" && typeof payload.message === "string";
}

/**
 * The run's LedgerEntry rows as its CallLedger: a recorded action_result is found by its call
 * key with one indexed lookup, so a re-run makes no call that already has a result.
 */
export class PrismaCallLedger implements CallLedger {
  constructor(
    private readonly db: Db,
    private readonly runId: string,
  ) {}

  async call(key: string, request: CallRequest, perform: (identity?: CallIdentity) => Promise<JsonObject>): Promise<CallOutcome> {
    const recorded = await this.db.ledgerEntry.findUnique({
      where: { runId_callKey: { runId: this.runId, callKey: resultKey(key) } },
      select: { payload: true },
    });
    if (recorded) return toOutcome(recorded.payload as JsonObject, true);

    const identity = callIdentity(this.runId, key);
    await this.#append({ actor: request.actor, type: "action_call", payload: { policy: request.policy, payload: request.payload, idempotencyKey: identity.idempotencyKey } });
    let payload: JsonObject;
    try {
      payload = await perform(identity);
    } catch (error) {
      if (!(error instanceof CallFailedError)) throw error;
      payload = { error: true, code: error.code, message: error.message };
    }
    await this.#append({ actor: request.policy, type: "action_result", payload, callKey: resultKey(key) });
    return toOutcome(payload, false);
  }

  async note(key: string, actor: string, text: string): Promise<void> {
    try {
      await this.#append({ actor, type: "text", payload: { text }, callKey: noteKey(key) });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // already noted on an earlier run: once per key
    }
  }

  async #append(entry: Parameters<typeof appendLedgerEntry>[2]): Promise<void> {
    try {
      await this.db.$transaction((tx) => appendLedgerEntry(tx, this.runId, entry));
    } catch (error) {
      throw isMissingReference(error) ? new RunNotFoundError(this.runId) : error;
    }
  }
}

function toOutcome(payload: JsonObject, replayed: boolean): CallOutcome {
  if (isCallError(payload)) return { ok: false, error: { error: true, code: String(payload.code), message: String(payload.message) }, replayed };
  return { ok: true, result: payload, replayed };
}

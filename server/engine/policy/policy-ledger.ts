/**
 * The durable side of a policy's ledger (002 sections 2.3 and 7.2), as a port: where a policy's
 * calls are recorded once and read back on replay. Each policy has its own, under its scope; a
 * sub-policy's is a fresh one (`child`) that shares nothing with its parent's entries.
 *
 * The in-process view (the immutable Ledger a policy reads) is rebuilt by replaying the policy,
 * which is deterministic: only the results of calls need to be durable. So any CallLedger (the
 * run's, in the database; MemoryCallLedger) holds policy ledgers, each under its scope as a key
 * prefix, and a resumed run replays every one of them.
 */
import type { CallIdentity, CallLedger, CallOutcome, CallRequest, JsonObject } from "../ports/call-ledger";
import { MemoryCallLedger } from "../run/memory-call-ledger";

export interface PolicyLedger {
  /** This policy's key prefix in the run's ledger: "implement/attempt-1", ".../attempt-1/3/review". */
  readonly scope: string;
  /**
   * The recorded outcome of this policy's call `callId`, or performs it once and records it
   * (a CallFailedError as data; any other exception propagates and records no result).
   */
  call(callId: string, request: CallRequest, perform: (identity?: CallIdentity) => Promise<JsonObject>): Promise<CallOutcome>;
  /** Records what the policy said (a text step), once per id. */
  note(noteId: string, actor: string, text: string): Promise<void>;
  /** The fresh ledger of the sub-policy that this policy's call `callId` runs. */
  child(callId: string): PolicyLedger;
}

/**
 * The two id forms the runtime makes: a call is `<n>/<policy>` (its key ends in the policy's name,
 * ".../3/model"), a note `text-<n>`. Nothing else is accepted, so two scopes never share a key.
 */
const CALL_ID = /^[1-9][0-9]{0,8}\/[A-Za-z0-9_-]{1,64}$/;
const NOTE_ID = /^text-[1-9][0-9]{0,8}$/;

function checked(what: string, form: RegExp, value: string): string {
  if (!form.test(value)) throw new RangeError(`Not a policy ledger ${what}: ${JSON.stringify(value.slice(0, 80))}`);
  return value;
}

/** Policy ledgers held by a CallLedger, each under its scope as a key prefix. */
export function policyLedgerOn(calls: CallLedger, scope: string): PolicyLedger {
  if (scope.length === 0 || scope.length > 4096) throw new RangeError("A policy ledger's scope must be 1 to 4096 characters");
  return {
    scope,
    call: (callId, request, perform) => calls.call(`${scope}/${checked("call id", CALL_ID, callId)}`, request, perform),
    note: (noteId, actor, text) => calls.note(`${scope}/${checked("note id", NOTE_ID, noteId)}`, actor, text),
    child: (callId) => policyLedgerOn(calls, `${scope}/${checked("call id", CALL_ID, callId)}`),
  };
}

/** The in-memory implementation: a run that needs no durability (tests, dry runs). */
export function memoryPolicyLedger(scope = "policy", calls: CallLedger = new MemoryCallLedger()): PolicyLedger {
  return policyLedgerOn(calls, scope);
}

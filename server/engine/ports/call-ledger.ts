/**
 * The run's ledger as the source of truth for every call a generator makes (002 sections 2.3
 * and 7). A generator reaches a model or a tool only through `call`: when the ledger already
 * holds a result under the same key, that result is returned and nothing is called, so a run
 * re-executed after a crash makes exactly the calls it had not finished.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A failure kept as data (002 section 5.4): the caller sees it instead of an exception. */
export interface CallError {
  readonly error: true;
  readonly code: string;
  readonly message: string;
}

export interface CallRequest {
  /** Who asks: "assistant" for a model turn, the agent's name for a tool call. */
  readonly actor: string;
  /** What is called: "model" or a tool's name. */
  readonly policy: string;
  readonly payload: JsonObject;
}

/**
 * Who a performed call is, handed to `perform`: its key in the ledger and the idempotency key to
 * send with the request it makes (an `Idempotency-Key` header), so a provider or proxy can
 * deduplicate the one request that may repeat when a crash fell between the call and its record.
 * The same ledger (the same run, reopened) gives the same idempotency key for the same key; two
 * runs never share one.
 */
export interface CallIdentity {
  readonly key: string;
  readonly idempotencyKey: string;
}

export type CallOutcome =
  | { readonly ok: true; readonly result: JsonObject; readonly replayed: boolean }
  | { readonly ok: false; readonly error: CallError; readonly replayed: boolean };

/** Thrown by `perform` for a failure that must be recorded as data rather than crash the run. */
export class CallFailedError extends Error {
  override readonly name = "CallFailedError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CallLedger {
  /**
   * Returns the result recorded under `key`, or performs the call, appending an action_call
   * step before it (recording the identity's idempotency key) and an action_result step (the
   * result, or a CallFailedError as data) after. Any other exception from `perform` propagates
   * and nothing is recorded as its result.
   * Every implementation must hand `perform` the call's identity (the conformance suite checks
   * it); the parameter is optional only so that a ledger written before identities existed still
   * compiles, and a call made through one sends no idempotency key.
   */
  call(key: string, request: CallRequest, perform: (identity?: CallIdentity) => Promise<JsonObject>): Promise<CallOutcome>;
  /** Appends a text step (what the agent said between calls), once per key. */
  note(key: string, actor: string, text: string): Promise<void>;
}

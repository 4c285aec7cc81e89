import type { CallIdentity } from "../ports/call-ledger";
import type { Action } from "./action";
import type { Ledger } from "./ledger";
import type { Step } from "./step";

/**
 * What a policy can do besides computing (002 section 3.5): call other policies, read its own
 * ledger. `env` is the runtime's configuration for the policies of one run (002 leaves it to the
 * runtime); `signal` aborts the run (cancel, lease lost, shutdown) and is never a result.
 */
export interface PolicyContext<Env = unknown> {
  call(action: Action, decorators?: readonly Decorator<Env>[]): Promise<readonly Step[]>;
  getLedger(): Ledger;
  readonly env: Env;
  readonly signal?: AbortSignal;
  /** The identity of the call running this policy (none for the runner's root policy): its key and idempotency key. */
  readonly identity: CallIdentity | undefined;
}

/**
 * What the decorators need beyond a policy's Context: the runtime's own operations, which a
 * policy's code does not call.
 */
export interface RuntimeContext<Env = unknown> extends PolicyContext<Env> {
  /** Appends steps to this policy's ledger (text steps are also noted in the durable ledger). */
  append(steps: readonly Step[]): Promise<readonly Step[]>;
  /** Records a text step of this ledger in the durable ledger too (what a policy said between calls), once. */
  note(step: Step): Promise<void>;
  /**
   * Runs the call an action_call step of this ledger asks for, as a model chose it: only a tool
   * (not internal) among this policy's allowed actions. Returns its result steps, caused by the step.
   */
  invoke(call: Step): Promise<readonly Step[]>;
}

/** 002 section 3.4: an async function from an Action and a Context to the steps it produced. */
export type Policy<Env = unknown> = (action: Action, ctx: RuntimeContext<Env>) => Promise<readonly Step[]>;

/** Wraps a policy with behaviour (002 section 4); the first of a list is the outermost. */
export type Decorator<Env = unknown> = (policy: Policy<Env>) => Policy<Env>;

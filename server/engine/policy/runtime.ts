/**
 * The Context of 002 section 7.1: one per running policy, with its own ledger. `call` runs a
 * sub-policy in a new Context over a fresh ledger (its durable entries under the call's scope),
 * unless the call's result is already recorded, in which case the recorded steps come back and
 * nothing runs (exactly once, across crashes). Failures of a called policy are steps: refusals
 * (unknown, not allowed, bad input) and a tool's own errors are recorded and returned as data.
 */
import { configurationErrorOf } from "../errors";
import { CallFailedError, type CallIdentity, type JsonObject } from "../ports/call-ledger";
import { createAction, type Action } from "./action";
import { MAX_INPUT_BYTES, recordedPayload } from "./input-bounds";
import { Ledger } from "./ledger";
import { POLICY_ERROR_CODES, PolicyInvariantError, PolicyLedgerError } from "./policy-errors";
import type { PolicyLedger } from "./policy-ledger";
import type { Decorator, Policy, RuntimeContext } from "./policy";
import type { PolicyEntry, PolicyRegistry } from "./registry";
import { isToolsPending } from "./waiting";
import { callOf, createStep, errorStep, resultStep, stepsFromJson, stepsToJson, type Step } from "./step";

/** One call as it went: the trace a runner hands back (how many calls ran, how many were replayed). */
export interface CallTrace {
  readonly scope: string;
  readonly callId: string;
  readonly policy: string;
  /** "call": a policy's code called it; "invoke": invoke_action ran a model's choice. */
  readonly via: "call" | "invoke";
  readonly replayed: boolean;
  readonly ok: boolean;
}

/** What every Context of one run shares. */
export interface RunScope<Env> {
  readonly registry: PolicyRegistry<Env>;
  readonly env: Env;
  readonly signal?: AbortSignal;
  readonly trace: CallTrace[];
  readonly limits: RunLimits;
}

/** Bounds of one run: how deep policies may nest, how many calls the whole run may make. */
export interface RunLimits {
  readonly maxDepth: number;
  readonly maxCalls: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxDepth: 16, maxCalls: 10_000 };

/** Names from a model can be anything; in a key they are cut and reduced to safe characters. */
function keyName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "_";
}

/** The ledger's policy column names what was asked for; a model's made-up name is kept short. */
function shownName(name: string): string {
  return name.length <= 64 ? name : `${name.slice(0, 64)}…`;
}

/** A leaf's run as a policy of one result step, so decorators and the root can treat both alike. */
export function policyOf<Env>(entry: PolicyEntry<Env>): Policy<Env> {
  if (entry.policy) return entry.policy;
  const run = entry.run;
  return async (action, ctx) => [resultStep(entry.name, await run(action.payload, ctx))];
}

/** The policy with its decorators (the first outermost) around it, its own steps entering its ledger as it returns them. */
export function decorate<Env>(policy: Policy<Env>, decorators: readonly Decorator<Env>[]): Policy<Env> {
  const appending: Policy<Env> = async (action, ctx) => ctx.append(await policy(action, ctx));
  return decorators.reduceRight((wrapped, decorator) => decorator(wrapped), appending);
}

export class LedgerContext<Env> implements RuntimeContext<Env> {
  #ledger: Ledger;
  #calls = 0;

  constructor(
    private readonly run: RunScope<Env>,
    private readonly store: PolicyLedger,
    private readonly action: Action,
    readonly identity: CallIdentity | undefined,
    /** 0 for the runner's root, one more for each ctx.call below it. */
    private readonly depth = 0,
  ) {
    this.#ledger = new Ledger(store.scope);
  }

  get env(): Env {
    return this.run.env;
  }

  get signal(): AbortSignal | undefined {
    return this.run.signal;
  }

  getLedger(): Ledger {
    return this.#ledger;
  }

  /**
   * Appends the steps not in this ledger yet, and returns all of them as the ledger holds them: a
   * policy may return what ctx.call gave it (002 section 6.3) without the ledger recording it twice.
   */
  async append(steps: readonly Step[]): Promise<readonly Step[]> {
    const present = new Set(this.#ledger.steps);
    const fresh = steps.filter((step) => !present.has(step));
    const before = this.#ledger.length;
    this.#ledger = this.#ledger.extend(fresh);
    const added = this.#ledger.steps.slice(before);
    let next = 0;
    return steps.map((step) => (present.has(step) ? step : added[next++]!));
  }

  /** Records a text step of this ledger in the durable one (what a policy said between its calls), once. */
  async note(step: Step): Promise<void> {
    if (step.type !== "text" || typeof step.payload.text !== "string") throw new PolicyInvariantError(`Only a text step can be noted, not ${step.type}`);
    await this.store.note(`text-${step.id.slice(step.id.lastIndexOf("#") + 1)}`, step.actor, step.payload.text);
  }

  async call(action: Action, decorators: readonly Decorator<Env>[] = []): Promise<readonly Step[]> {
    const [call] = await this.append([createStep({ actor: this.action.policy, type: "action_call", payload: { policy: action.policy, payload: action.payload } })]);
    const allowed = this.action.actions.has(action.policy);
    const results = await this.#perform(call!, action.policy, action.payload, { allowed, actions: action.actions, decorators, via: "call" });
    return this.append(results);
  }

  async invoke(call: Step): Promise<readonly Step[]> {
    if (call.type !== "action_call" || !this.#ledger.steps.includes(call)) throw new PolicyInvariantError("invoke takes an action_call step of this policy's own ledger");
    const { policy, payload } = callOf(call);
    const entry = this.run.registry.get(policy);
    const allowed = this.action.actions.has(policy) && entry !== undefined && !entry.internal;
    const results = await this.#perform(call, policy, payload, { allowed, actions: entry?.actions ?? [], decorators: [], via: "invoke" });
    return this.append(results);
  }

  async #perform(
    call: Step,
    name: string,
    raw: JsonObject | string,
    how: { allowed: boolean; actions: Iterable<string>; decorators: readonly Decorator<Env>[]; via: CallTrace["via"] },
  ): Promise<Step[]> {
    this.run.signal?.throwIfAborted();
    // A policy that calls without end is a bug in its code (002 section 10.1): the run stops.
    if (this.run.trace.length >= this.run.limits.maxCalls) throw new PolicyInvariantError(`The run made ${this.run.limits.maxCalls} calls, its limit: a policy calls without end`);
    const callId = `${++this.#calls}/${keyName(name)}`;
    const entry = this.run.registry.get(name);
    // A leaf called without decorators records its result as is; anything else records its steps.
    const single = entry?.run !== undefined && how.decorators.length === 0;
    const outcome = await this.#recorded(
      name,
      callId,
      { actor: this.action.policy, policy: shownName(name), payload: recordedPayload(raw, entry?.maxInputBytes ?? MAX_INPUT_BYTES) },
      async (identity) => {
        if (!how.allowed || !entry) throw new CallFailedError(POLICY_ERROR_CODES.unknownTool, this.#unknown(name));
        if (this.depth >= this.run.limits.maxDepth) {
          throw new CallFailedError(POLICY_ERROR_CODES.callTooDeep, `Not run: policies nest at most ${this.run.limits.maxDepth} calls deep, and ${this.action.policy} is at the limit.`);
        }
        const checked = this.run.registry.check(name, raw);
        if (!checked.ok) throw new CallFailedError(POLICY_ERROR_CODES.invalidArguments, checked.message);
        const childAction = createAction(name, checked.input, how.actions);
        const child = new LedgerContext(this.run, this.store.child(callId), childAction, identity, this.depth + 1);
        const steps = await this.#guarded(name, () => decorate(policyOf(entry), how.decorators)(childAction, child));
        if (!single) return stepsToJson(steps);
        const only = steps.length === 1 ? steps[0] : undefined;
        if (!only || only.type !== "action_result") throw new PolicyInvariantError(`Tool ${name} must return one action_result step`);
        return only.payload;
      },
    );
    this.run.trace.push({ scope: this.store.scope, callId, policy: name, via: how.via, replayed: outcome.replayed, ok: outcome.ok });
    const results = !outcome.ok
      ? [errorStep(shownName(name), outcome.error.code, outcome.error.message)]
      : single
        ? [resultStep(name, outcome.result)]
        : stepsFromJson(name, outcome.result);
    return results.map((step) => (step.type === "action_result" ? createStep({ ...step, cause: call.id }) : step));
  }

  /** The store's call, its own failures marked so that no policy above records them as a tool's. */
  async #recorded(name: string, ...args: Parameters<PolicyLedger["call"]>): ReturnType<PolicyLedger["call"]> {
    try {
      return await this.store.call(...args);
    } catch (error) {
      if (this.#stops(error)) throw error;
      throw new PolicyLedgerError(`The ledger failed while recording the call of ${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /** What no policy may turn into data: an abort, a broken invariant, a failing ledger, a configuration error, a tool that waits. */
  #stops(error: unknown): boolean {
    return Boolean(this.run.signal?.aborted || error instanceof PolicyInvariantError || error instanceof PolicyLedgerError || configurationErrorOf(error) || isToolsPending(error));
  }

  /** A called policy's own failure is data (TOOL_FAILED); aborts, broken invariants and configuration errors stop the run. */
  async #guarded(name: string, run: () => Promise<readonly Step[]>): Promise<readonly Step[]> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof CallFailedError || this.#stops(error)) throw error;
      throw new CallFailedError(POLICY_ERROR_CODES.toolFailed, `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #unknown(name: string): string {
    const available = this.run.registry.tools(this.action.actions).map((tool) => tool.name);
    return `There is no tool ${JSON.stringify(name.slice(0, 64))}. Available: ${available.join(", ") || "none"}`;
  }
}

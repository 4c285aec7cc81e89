/**
 * The runner of 002 section 9: the entry point that runs one policy at the root of a fresh
 * Context. Given the ledger of an earlier, crashed run, it replays: every call whose result is
 * recorded returns that result without running, and only what was not finished runs.
 */
import type { JsonObject } from "../ports/call-ledger";
import { createAction } from "./action";
import type { Ledger } from "./ledger";
import { memoryPolicyLedger, type PolicyLedger } from "./policy-ledger";
import type { Decorator } from "./policy";
import type { PolicyRegistry } from "./registry";
import { decorate, DEFAULT_RUN_LIMITS, LedgerContext, policyOf, type CallTrace, type RunLimits } from "./runtime";
import type { Step } from "./step";

export interface RunPolicyOptions<Env> {
  readonly registry: PolicyRegistry<Env>;
  readonly env: Env;
  /** The root policy's durable ledger: a fresh one for a new run, the same one to replay. */
  readonly ledger?: PolicyLedger;
  /** The policies the root may call. */
  readonly actions?: Iterable<string>;
  readonly decorators?: readonly Decorator<NoInfer<Env>>[];
  readonly signal?: AbortSignal;
  /** How deep policies may nest and how many calls the run may make; DEFAULT_RUN_LIMITS otherwise. */
  readonly limits?: Partial<RunLimits>;
}

export interface PolicyRun {
  /** The root policy's ledger as the run left it. */
  readonly ledger: Ledger;
  /** The steps the root policy returned. */
  readonly steps: readonly Step[];
  /** Every call made in the run, nested ones included, in the order they finished. */
  readonly trace: readonly CallTrace[];
}

/**
 * Runs `policyName` on `payload`. The root's input is the caller's own, so a missing policy or
 * input that does not match its schema is a programming error and throws (a RangeError naming
 * the field); below the root, every failure is data.
 */
export async function runPolicy<Env>(policyName: string, payload: JsonObject, options: RunPolicyOptions<Env>): Promise<PolicyRun> {
  const entry = options.registry.get(policyName);
  if (!entry) throw new RangeError(`There is no policy "${policyName.slice(0, 64)}" in the registry`);
  const checked = options.registry.check(policyName, payload);
  if (!checked.ok) throw new RangeError(checked.message);
  const trace: CallTrace[] = [];
  const action = createAction(policyName, checked.input, options.actions ?? entry.actions ?? []);
  const limits = checkedLimits({ ...DEFAULT_RUN_LIMITS, ...options.limits });
  const scope = { registry: options.registry, env: options.env, signal: options.signal, trace, limits };
  const context = new LedgerContext(scope, options.ledger ?? memoryPolicyLedger(policyName), action, undefined);
  const steps = await decorate(policyOf(entry), options.decorators ?? [])(action, context);
  return { ledger: context.getLedger(), steps, trace };
}

function checkedLimits(limits: RunLimits): RunLimits {
  for (const [name, value, max] of [["maxDepth", limits.maxDepth, 64], ["maxCalls", limits.maxCalls, 1_000_000]] as const) {
    if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`The run's ${name} must be a whole number from 1 to ${max}, got ${value}`);
  }
  return limits;
}

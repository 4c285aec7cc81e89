/**
 * The decorators of 002 section 4. Typical use: `[loopWrapper(5), invokeAction()]`, the loop
 * outside: each turn runs the policy, then the calls it chose, until a turn chooses none.
 */
import { POLICY_ERROR_CODES } from "./policy-errors";
import type { Policy } from "./policy";
import { createStep, errorStep, type Step } from "./step";
import { isToolsPending, ToolsPendingError, type ToolWaitRequest } from "./waiting";

/** Bounds of a loop a workflow or a model could otherwise make endless. */
export const MAX_LOOP_TURNS = 100;
export const DEFAULT_MAX_CALLS_PER_TURN = 16;
export const MAX_CALLS_PER_TURN = 256;

function checkedBound(what: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${what} must be a whole number from 1 to ${max}, got ${value}`);
  return value;
}

/** A decorator that fits policies of any environment (these two read none of it). */
type AnyEnv = <Env>(policy: Policy<Env>) => Policy<Env>;

const hasCalls = (steps: readonly Step[]) => steps.some((step) => step.type === "action_call");

/**
 * 4.1: runs the policy again while its last turn made action_call steps, at most `maxTurns`
 * times. A policy still calling on its last turn is cut there: the steps end with a MAX_TURNS
 * error step, data for its caller. Every turn reads the ledger the previous ones extended.
 */
export function loopWrapper(maxTurns: number): AnyEnv {
  const bound = checkedBound("loop_wrapper's max_turns", maxTurns, MAX_LOOP_TURNS);
  return (policy) => async (action, ctx) => {
    const produced: Step[] = [];
    for (let turn = 1; turn <= bound; turn++) {
      ctx.signal?.throwIfAborted();
      const steps = await policy(action, ctx);
      produced.push(...steps);
      if (!hasCalls(steps)) return produced;
    }
    const cut = errorStep(action.policy, POLICY_ERROR_CODES.maxTurns, `${action.policy} was still making calls after ${bound} turns and was stopped`);
    return [...produced, ...(await ctx.append([cut]))];
  };
}

/**
 * 4.2: runs the action_call steps the policy returned, as a model chose them: each must name a
 * tool among the policy's allowed actions, with input matching its schema, or its result is an
 * error step. What the policy said before its calls is noted in the durable ledger. Calls beyond
 * `maxCallsPerTurn` are answered with an error without running (every call gets its answer).
 */
export function invokeAction(options: { readonly maxCallsPerTurn?: number } = {}): AnyEnv {
  const bound = checkedBound("invoke_action's max calls per turn", options.maxCallsPerTurn ?? DEFAULT_MAX_CALLS_PER_TURN, MAX_CALLS_PER_TURN);
  return (policy) => async (action, ctx) => {
    const steps = await policy(action, ctx);
    const calls = steps.filter((step) => step.type === "action_call");
    if (calls.length === 0) return steps;
    for (const step of steps) if (step.type === "text") await ctx.note(step);
    const results: Step[] = [];
    // Tools that wait do not stop the others of the turn: the turn suspends on all of them at once.
    const waits: ToolWaitRequest[] = [];
    for (const [index, call] of calls.entries()) {
      if (index < bound) {
        try {
          results.push(...(await ctx.invoke(call)));
        } catch (error) {
          if (!isToolsPending(error)) throw error;
          waits.push(...error.waits);
        }
        continue;
      }
      const refused = createStep({ ...errorStep(action.policy, POLICY_ERROR_CODES.tooManyCalls, `Not run: at most ${bound} tool calls are run per turn.`), cause: call.id });
      results.push(...(await ctx.append([refused])));
    }
    if (waits.length > 0) throw new ToolsPendingError(waits);
    return [...steps, ...results];
  };
}

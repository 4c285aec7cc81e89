/**
 * Where a step runs (004's `in_state`): one state, a list of states, or "*" for any state. A "*"
 * step is a fallback: in a state, a step that names the state runs first; only a state with no
 * such step (or none whose run_if holds) runs a "*" step. So 004's code step without `in_state`
 * fills every state that has no step of its own and never displaces one that does.
 */
export type InState = string | readonly string[];

/** A wildcard: as a transition's `from`, every state; as a step's `in_state`, the fallback of every state. */
export const ANY_STATE = "*";

/** The states a step names; empty for a "*" step. */
export function namedStates(inState: InState): readonly string[] {
  if (typeof inState === "string") return inState === ANY_STATE ? [] : [inState];
  return inState;
}

export function isFallbackStep(inState: InState): boolean {
  return inState === ANY_STATE;
}

/** How a step relates to a state: it names it, it is a fallback for every state, or neither. */
export function stepPlacement(inState: InState, state: string): "named" | "fallback" | "elsewhere" {
  if (isFallbackStep(inState)) return "fallback";
  return namedStates(inState).includes(state) ? "named" : "elsewhere";
}

/** The states a step may run in, given every declared state. */
export function statesOfStep(inState: InState, allStates: readonly string[]): readonly string[] {
  return isFallbackStep(inState) ? allStates : namedStates(inState);
}

/** How an in_state reads in a sentence: `state "a"`, `states "a", "b"`, `any state`. */
export function describeInState(inState: InState): string {
  if (isFallbackStep(inState)) return "any state";
  const states = namedStates(inState);
  return states.length === 1 ? `state "${states[0]}"` : `states ${states.map((state) => `"${state}"`).join(", ")}`;
}

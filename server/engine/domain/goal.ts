import { isSatisfied, type WorkflowState } from "./workflow-state";

/**
 * The goal test of 000 (`is_goal_state`: every guard of Sgoal is ⊤) as the interpreter applies
 * it when a run reaches a final state. The goal set is the machine's declared `goal` when it has
 * one; otherwise the guards of every action pair step that ran, those whose step was given up
 * with on_failure: skip included. A final state reached with any of them unsatisfied ends the run
 * failed with `goalNotReachedReason`, never with success.
 */

/** A guard of the goal set and the step that satisfies it. */
export interface GoalGuard {
  readonly guardId: string;
  readonly step: string;
}

/** Every reason of this kind starts so: a run that reached a final state without its goal. */
export const GOAL_NOT_REACHED = "Goal not reached";

/** The goal guards the workflow state has not satisfied, in goal order. */
export function unsatisfiedGoalGuards(state: WorkflowState, goal: readonly GoalGuard[]): GoalGuard[] {
  return goal.filter((guard) => !isSatisfied(state, guard.guardId));
}

/** The failure reason naming each missing guard and its step. */
export function goalNotReachedReason(finalState: string, missing: readonly GoalGuard[]): string {
  const named = missing.map((guard) => `${guard.guardId} (step "${guard.step}")`).join(", ");
  const verb = missing.length === 1 ? "guard" : "guards";
  return `${GOAL_NOT_REACHED} in final state "${finalState}": ${verb} ${named} ${missing.length === 1 ? "is" : "are"} not satisfied`;
}

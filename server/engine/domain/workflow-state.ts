/**
 * The deterministic workflow state sw : G → {⊥, ⊤} (001 `WorkflowState`), kept immutable:
 * every transition returns a new value, so "unchanged on guard failure" (000 Definition 4)
 * is simply "the same object".
 */
export interface WorkflowState {
  readonly guards: Readonly<Record<string, boolean>>;
  readonly artifactIds: Readonly<Record<string, string>>;
}

export const initialWorkflowState: WorkflowState = Object.freeze({
  guards: Object.freeze({}),
  artifactIds: Object.freeze({}),
});

export function isSatisfied(state: WorkflowState, guardId: string): boolean {
  return state.guards[guardId] === true;
}

export function artifactIdFor(state: WorkflowState, guardId: string): string | undefined {
  return state.artifactIds[guardId];
}

/** Definition 8: sw ← sw[gid ↦ ⊤], remembering which artifact satisfied the guard. */
export function satisfy(state: WorkflowState, guardId: string, artifactId: string): WorkflowState {
  return Object.freeze({
    guards: Object.freeze({ ...state.guards, [guardId]: true }),
    artifactIds: Object.freeze({ ...state.artifactIds, [guardId]: artifactId }),
  });
}

/** Goal test of 000: every guard of the goal set is satisfied. */
export function isGoalState(state: WorkflowState, goalGuardIds: readonly string[]): boolean {
  return goalGuardIds.every((guardId) => isSatisfied(state, guardId));
}

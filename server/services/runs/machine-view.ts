import type { WorkflowDefinition } from "@/server/workflows/definition";

/** What the run page draws of a run's state machine: states with their steps, transitions, the path taken. */
export interface MachineView {
  readonly states: readonly {
    readonly name: string;
    readonly initial: boolean;
    readonly final: boolean;
    readonly steps: readonly { readonly name: string; readonly type: string; readonly generator: string | null; readonly guards: readonly string[] }[];
  }[];
  readonly transitions: readonly { readonly from: string; readonly to: string; readonly condition: string | null }[];
  /** The states the run entered, in order (a revisited state appears again). */
  readonly path: readonly string[];
  readonly current: string | null;
}

/**
 * The machine of a run's pinned definition and the path the run took: the state of each started
 * step, in ledger order, then the state the run ended or suspended in. Pure.
 */
export function machineView(definition: WorkflowDefinition, startedSteps: readonly string[], endState: string | null, current: string | null): MachineView {
  const stateOfStep = new Map(definition.steps.map((step) => [step.name, step.in_state]));
  const path: string[] = [definition.state_machine.initial_state];
  for (const step of startedSteps) {
    const state = stateOfStep.get(step);
    if (state !== undefined && path.at(-1) !== state) path.push(state);
  }
  if (endState !== null && path.at(-1) !== endState) path.push(endState);
  return {
    states: definition.state_machine.states.map((name) => ({
      name,
      initial: name === definition.state_machine.initial_state,
      final: definition.state_machine.final_states.includes(name),
      steps: definition.steps
        .filter((step) => step.in_state === name)
        .map((step) => ({ name: step.name, type: step.type, generator: step.generator?.kind ?? null, guards: (step.guards ?? []).map((guard) => guard.kind) })),
    })),
    transitions: definition.state_machine.transitions.map((transition) => ({ from: transition.from, to: transition.to, condition: transition.condition ?? null })),
    path,
    current: current ?? endState,
  };
}

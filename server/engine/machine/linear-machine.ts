import type { WorkflowStep } from "../agent/step";
import { DEFAULT_RMAX } from "../agent/workflow";
import type { WorkflowMachine } from "./machine";

/**
 * 001's sequential step list as a machine: one state per step (named after it), each step moving
 * to the next state once it passes (`onFailure: "fail"`), and a final state after the last. Run
 * with runMachine it gives executeWorkflow's outcomes and events: there are not two engines.
 */
export function linearMachine(steps: readonly WorkflowStep[], rmax = DEFAULT_RMAX): WorkflowMachine {
  const names = new Set(steps.map((step) => step.name));
  let finalState = "done";
  while (names.has(finalState)) finalState = `${finalState}_`;
  const states = [...steps.map((step) => step.name), finalState];
  return {
    states,
    initialState: states[0]!,
    finalStates: [finalState],
    transitions: [],
    context: {},
    steps: steps.map((step, index) => ({
      kind: "action_pair" as const,
      name: step.name,
      inState: step.name,
      transitionTo: states[index + 1],
      guardId: step.guardId,
      actionPair: step.actionPair,
      guardArtifactDeps: step.guardArtifactDeps,
      rmax: step.rmax ?? rmax,
      onFailure: "fail" as const,
      ...(step.language !== undefined ? { language: step.language } : {}),
      ...(step.draftGuard !== undefined ? { draftGuard: step.draftGuard } : {}),
    })),
  };
}

import { statesOfStep } from "../../engine/domain/in-state";
import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

/**
 * The machine takes the first transition, in list order, whose `from` is the current state and
 * whose condition holds (run-machine.ts). After an unconditional transition from a state, a later
 * one from the same state is never taken: two ways out with no condition to choose between them.
 * "*" transitions are left alone: their place in the list is how an author gives them priority.
 * So are states where a step chooses the way out (transition_to, a transition step's
 * transition_map): there the transitions list the step's choices, as in 004's reflecting state.
 * A transition that did not parse is absent here, so it is never judged against a guess.
 */
export function checkTransitions(raw: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  // A step that did not parse whole may have been the one choosing.
  if (!known.graph) return;
  const chosenByStep = new Set(known.openStates);
  const allStates = [...present(raw.state_machine.states)].map(([state]) => state);
  for (const [step, i] of present(raw.steps)) {
    if (step.transition_to !== undefined || step.transition_map !== undefined || known.partialSteps.has(i)) {
      statesOfStep(step.in_state, allStates).forEach((state) => chosenByStep.add(state));
    }
  }
  for (const [state] of known.possibleEdges) chosenByStep.add(state);
  const unconditional = new Map<string, number>();
  for (const [transition, i] of present(raw.state_machine.transitions)) {
    // Kept only as an edge: its condition did not parse, so it is neither judged nor a judge.
    if (transition.from === "*" || chosenByStep.has(transition.from) || known.partialTransitions.has(i)) continue;
    const first = unconditional.get(transition.from);
    if (first !== undefined) {
      const earlier = raw.state_machine.transitions?.[first];
      // Never taken, so never wrong at run time, but almost always a mistake: a warning.
      problems.warn(
        ["state_machine", "transitions", i],
        `ambiguous: state "${transition.from}" already leaves without a condition at transitions[${first}] (to "${earlier?.to}"), so this transition to "${transition.to}" is never taken; give the earlier one a condition`,
      );
    } else if (transition.condition === undefined) unconditional.set(transition.from, i);
  }
}

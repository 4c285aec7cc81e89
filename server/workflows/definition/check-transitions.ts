import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

/**
 * The machine takes the first transition, in list order, whose `from` is the current state and
 * whose condition holds (run-machine.ts). After an unconditional transition from a state, a later
 * one from the same state is never taken: two ways out with no condition to choose between them.
 * "*" transitions are left alone: their place in the list is how an author gives them priority.
 * A transition that did not parse is absent here, so it is never judged against a guess.
 */
export function checkTransitions(raw: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  const unconditional = new Map<string, number>();
  for (const [transition, i] of present(raw.state_machine.transitions)) {
    // Kept only as an edge: its condition did not parse, so it is neither judged nor a judge.
    if (transition.from === "*" || known.partialTransitions.has(i)) continue;
    const first = unconditional.get(transition.from);
    if (first !== undefined) {
      const earlier = raw.state_machine.transitions?.[first];
      problems.add(
        ["state_machine", "transitions", i],
        `ambiguous: state "${transition.from}" already leaves without a condition at transitions[${first}] (to "${earlier?.to}"), so this transition to "${transition.to}" is never taken; give the earlier one a condition`,
      );
    } else if (transition.condition === undefined) unconditional.set(transition.from, i);
  }
}

/**
 * The state machine a seed document implies (docs/workflow-format.md, "Documents written in the
 * seeds' format"):
 * - no `state_machine` and no step placed in a state: 001's sequential workflow, one state per
 *   step (named after it), each step moving to the next, ending in "done";
 * - no `state_machine` but steps placed in states (004's steps block): the states they name, the
 *   first step's state first;
 * - no `in_state` on a step of a machine: "*", the fallback of every state;
 * - no `final_states`: the states with no way out of their own (no transition from them, no
 *   step in them that chooses where to go). "*" transitions and "*" steps are ways out of every
 *   state, so they are left out, as 004's `from: "*"` pivot is.
 */
import { ANY_STATE, isFallbackStep, namedStates } from "../../../engine/domain/in-state";
import { isObject, type SeedFindings } from "./findings";

const FINAL_STATE = "done";

const stringsIn = (value: unknown): string[] => (typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
const list = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");

/** Steps are objects already copied by the caller; this writes in_state/transition_to into them. */
export function inferMachine(workflow: Record<string, unknown>, steps: Record<string, unknown>[], findings: SeedFindings): void {
  if (!Object.hasOwn(workflow, "state_machine")) {
    const placed = steps.some((step) => step.in_state !== undefined || step.transition_to !== undefined || step.transition_map !== undefined);
    workflow.state_machine = placed ? machineFromPlacedSteps(steps, findings) : sequentialMachine(steps, findings);
    // Problems in the inferred machine are about the steps that imply it.
    findings.moves.push([["state_machine"], ["steps"]]);
  } else {
    for (const [i, step] of steps.entries()) {
      if (step.in_state !== undefined) continue;
      step.in_state = ANY_STATE;
      findings.warnings.push({ path: ["steps", i], message: `no in_state: step "${String(step.name)}" runs in any state that has no step of its own (in_state: "*")` });
    }
  }
  const machine = workflow.state_machine;
  if (isObject(machine) && !Object.hasOwn(machine, "final_states")) inferFinalStates(machine, steps, findings);
}

function sequentialMachine(steps: Record<string, unknown>[], findings: SeedFindings): Record<string, unknown> {
  const names = steps.map((step) => step.name).filter((name): name is string => typeof name === "string");
  const taken = new Set(names);
  let final = FINAL_STATE;
  while (taken.has(final)) final = `${final}_`;
  const states = [...new Set(names), final];
  // From the last step back, so each step knows the next named one without searching.
  let next = final;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as Record<string, unknown>;
    if (typeof step.name !== "string") continue;
    step.in_state = step.name;
    step.transition_to = next;
    next = step.name;
  }
  findings.warnings.push({
    path: ["steps"],
    message: `no state_machine: the steps run in order, one state per step (${list(states.slice(0, Math.min(20, states.length - 1)))}${states.length > 21 ? ", …" : ""}), then the final state "${final}" (001's sequential workflow)`,
  });
  return { states, initial_state: states[0], final_states: [final] };
}

function machineFromPlacedSteps(steps: Record<string, unknown>[], findings: SeedFindings): Record<string, unknown> {
  // A Set keeps first-mention order and stays linear however many names a document holds.
  const mentioned = new Set<string>();
  const mention = (name: string) => {
    if (name !== ANY_STATE) mentioned.add(name);
  };
  for (const step of steps) {
    stringsIn(step.in_state).forEach(mention);
    stringsIn(step.transition_to).forEach(mention);
    if (isObject(step.transition_map)) Object.values(step.transition_map).forEach((target) => stringsIn(target).forEach(mention));
  }
  steps.forEach((step, i) => {
    if (step.in_state !== undefined) return;
    step.in_state = ANY_STATE;
    findings.warnings.push({ path: ["steps", i], message: `no in_state: step "${String(step.name)}" runs in any state that has no step of its own (in_state: "*")` });
  });
  const states = [...mentioned];
  const first = steps.flatMap((step) => stringsIn(step.in_state).filter((state) => state !== ANY_STATE))[0];
  findings.warnings.push({
    path: ["steps"],
    message: `no state_machine: the states are the ones the steps name (${list(states.slice(0, 20))}${states.length > 20 ? ", …" : ""}), starting in "${first ?? "?"}", with no transitions of their own`,
  });
  return { states, ...(first !== undefined ? { initial_state: first } : {}) };
}

function inferFinalStates(machine: Record<string, unknown>, steps: readonly Record<string, unknown>[], findings: SeedFindings): void {
  if (!Array.isArray(machine.states)) return;
  const states = machine.states.filter((state): state is string => typeof state === "string");
  const leaving = new Set<string>();
  for (const transition of Array.isArray(machine.transitions) ? machine.transitions : []) {
    if (isObject(transition) && typeof transition.from === "string" && transition.from !== ANY_STATE) leaving.add(transition.from);
  }
  for (const step of steps) {
    if (step.transition_to === undefined && step.transition_map === undefined) continue;
    const inState = step.in_state;
    if (typeof inState === "string" && isFallbackStep(inState)) continue;
    if (typeof inState === "string" || (Array.isArray(inState) && inState.every((state) => typeof state === "string"))) namedStates(inState as string | string[]).forEach((state) => leaving.add(state));
  }
  const finals = states.filter((state) => !leaving.has(state));
  if (finals.length === 0) {
    findings.problems.push({ path: ["state_machine"], message: "final_states is required here: every state has a way out, so none can be inferred; list the states that end the run" });
    return;
  }
  machine.final_states = finals;
  findings.warnings.push({ path: ["state_machine"], message: `no final_states: inferred as ${list(finals.slice(0, 20))}${finals.length > 20 ? ", …" : ""} (the states with no way out of their own); reaching one ends the run` });
}

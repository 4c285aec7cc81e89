import { BUILTIN_PROMPT_VARIABLES, isBuiltinPromptVariable, stepOfOutputVariable, stepOutputVariable } from "../../engine/domain/builtin-variables";
import { nearestName } from "./seed-format/nearest-name";
import { describeInState, statesOfStep, type InState } from "../../engine/domain/in-state";
import { parseCondition } from "../../engine";
import type { StateGraph } from "./check-states";
import { IDENTIFIER } from "./check-steps";
import { stepType } from "./normalize";
import type { Problems } from "./problems";
import { present, type CheckableWorkflow, type Knowledge } from "./salvage";

/** Every run provides these to prompts (issue 5); they cannot be redeclared as context variables. */
export const RUN_VARIABLES = ["specification", "constraints"] as const;

/**
 * Cross-references: guard ids and their dependencies, context variables, conditions, prompt
 * {variables} and components. Runs after the shape and the state checks. A "not known" verdict
 * is given only when every candidate is known (`known`); problems with what is there always are.
 */
export function checkReferences(raw: CheckableWorkflow, known: Knowledge, graph: StateGraph, problems: Problems): void {
  const context = new Set(Object.keys(raw.context ?? {}));
  for (const variable of context) {
    if (!IDENTIFIER.test(variable)) problems.add(["context", variable], "a context variable name must be letters, digits and _, not starting with a digit");
    if ((RUN_VARIABLES as readonly string[]).includes(variable) || isBuiltinPromptVariable(variable)) problems.add(["context", variable], `"${variable}" is provided by every run and cannot be declared`);
  }

  const producers = new Map<string, number>();
  for (const [step, i] of present(raw.steps)) {
    if (step.guard_id === undefined || stepType(step) !== "action_pair") continue;
    const first = producers.get(step.guard_id);
    if (first !== undefined) problems.add(["steps", i, "guard_id"], `duplicate guard id "${step.guard_id}" (first at steps[${first}])`);
    else producers.set(step.guard_id, i);
    if (!IDENTIFIER.test(step.guard_id)) problems.add(["steps", i, "guard_id"], "a guard id must be letters, digits and _, not starting with a digit (conditions use it by name)");
    if (context.has(step.guard_id)) problems.add(["steps", i, "guard_id"], `"${step.guard_id}" is both a guard id and a context variable`);
  }

  checkDependencies(raw, known, producers, graph, problems);
  const outputs = stepOutputNames(raw);
  checkConditions(raw, known.context && known.producers && known.stepNames ? new Set([...context, ...producers.keys(), ...known.possibleProducers, ...outputs]) : undefined, problems);
  checkPrompts(raw, known, context, problems);
}

function checkDependencies(raw: CheckableWorkflow, known: Knowledge, producers: Map<string, number>, graph: StateGraph, problems: Problems): void {
  for (const [step, i] of present(raw.steps)) {
    (step.guard_artifact_deps ?? []).forEach((dep, j) => {
      const at = ["steps", i, "guard_artifact_deps", j];
      const producer = producers.get(dep);
      if (dep === step.guard_id) problems.add(at, `"${dep}" is this step's own guard: a step cannot depend on its own artifact`);
      else if (producer === undefined) {
        if (known.producers && !known.possibleProducers.has(dep)) problems.add(at, `"${dep}" is not produced by any step (no action_pair step has guard_id "${dep}")`);
      } else {
        const source = raw.steps[producer];
        // The producer must be able to run before this step: one of its states must lead to one of this step's.
        if (source && graph.complete && !producedBefore(source.in_state, step.in_state, raw, graph)) {
          problems.add(at, `"${dep}" is produced later: step "${source.name}" runs in ${describeInState(source.in_state)}, from which ${describeInState(step.in_state)} cannot be reached`);
        }
      }
    });
  }
  findCycle(raw, producers, problems);
}

/** Whether a producer in `from` can run before a consumer in `to` (an open state may lead anywhere). */
function producedBefore(from: InState, to: InState, raw: CheckableWorkflow, graph: StateGraph): boolean {
  const allStates = [...present(raw.state_machine.states)].map(([state]) => state);
  const consumers = statesOfStep(to, allStates);
  return statesOfStep(from, allStates).some((state) => graph.open(state) || consumers.some((consumer) => graph.reachableFrom(state).has(consumer)));
}

/** Depth-first search over step → producer-of-dependency edges; reports one cycle per entry step. */
function findCycle(raw: CheckableWorkflow, producers: Map<string, number>, problems: Problems): void {
  const state = new Map<number, "open" | "done">();
  const visit = (i: number, trail: number[]): void => {
    state.set(i, "open");
    for (const dep of raw.steps[i]?.guard_artifact_deps ?? []) {
      const next = producers.get(dep);
      if (next === undefined || next === i) continue;
      if (state.get(next) === "open") {
        const cycle = [...trail.slice(trail.indexOf(next)), i, next].map((k) => raw.steps[k]?.name);
        problems.add(["steps", i, "guard_artifact_deps"], `dependency cycle: ${cycle.join(" → ")}`);
      } else if (!state.has(next)) visit(next, [...trail, i]);
    }
    state.set(i, "done");
  };
  for (const [, i] of present(raw.steps)) if (!state.has(i)) visit(i, []);
}

/** `names` is undefined when not every variable and guard id is known: then only parsing is checked. */
function checkConditions(raw: CheckableWorkflow, names: Set<string> | undefined, problems: Problems): void {
  const check = (source: string, path: (string | number)[]) => {
    const parsed = parseCondition(source);
    if (!parsed.ok) return problems.add(path, `condition does not parse: ${parsed.message}`);
    for (const name of parsed.names) {
      if (names && !names.has(name)) problems.add(path, `condition names "${name}", which is neither a declared context variable, a guard id nor a step's output (steps.NAME.output)`);
    }
  };
  for (const [t, i] of present(raw.state_machine.transitions)) if (t.condition !== undefined) check(t.condition, ["state_machine", "transitions", i, "condition"]);
  for (const [step, i] of present(raw.steps)) if (step.run_if !== undefined) check(step.run_if, ["steps", i, "run_if"]);
  // 001's precondition reads the workflow state only: which guards are satisfied.
  const guardIds = new Set([...present(raw.steps)].flatMap(([step]) => (step.guard_id !== undefined ? [step.guard_id] : [])));
  for (const [step, i] of present(raw.steps)) {
    if (step.precondition === undefined) continue;
    const parsed = parseCondition(step.precondition);
    if (!parsed.ok) problems.add(["steps", i, "precondition"], `condition does not parse: ${parsed.message}`);
    else if (names) for (const name of parsed.names) if (!guardIds.has(name)) problems.add(["steps", i, "precondition"], `precondition names "${name}", which is not a guard id: a precondition reads only which guards are satisfied (001's WorkflowState)`);
  }
}

/** `{name}` and `{steps.NAME.output}` variable references; `{{` and `}}` stand for literal braces. */
export function promptVariables(template: string): string[] {
  const found: string[] = [];
  for (const match of template.matchAll(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}/g)) if (match[1]) found.push(match[1]);
  return found;
}

/** `steps.NAME.output` for every step whose name a condition or prompt can spell. */
function stepOutputNames(raw: CheckableWorkflow): string[] {
  return [...present(raw.steps)].map(([step]) => step.name).filter((name) => IDENTIFIER.test(name)).map(stepOutputVariable);
}

function checkPrompts(raw: CheckableWorkflow, known: Knowledge, context: Set<string>, problems: Problems): void {
  const stepIndex = new Map([...present(raw.steps)].map(([step, i]) => [step.name, i]));
  // Variables are judged only against a complete list of what the step may use.
  const judged = (i: number) => known.context && !known.partialSteps.has(i);
  const allowedFor = (i: number) => {
    const deps = raw.steps[i]?.guard_artifact_deps ?? [];
    // A dependency's artifact is offered under its id and without the g_ prefix: {g_test} and {test}.
    return new Set([...context, ...RUN_VARIABLES, ...deps, ...deps.map((dep) => dep.replace(/^g_/, ""))]);
  };
  const outputs = new Set(stepOutputNames(raw));
  // Built-ins and step outputs are the same for every workflow: the message names them by kind.
  const everywhere = (variable: string) => isBuiltinPromptVariable(variable) || outputs.has(variable) || (!known.stepNames && stepOfOutputVariable(variable) !== undefined);
  const report = (template: string, allowed: Set<string>, path: (string | number)[], extra: string[] = []) => {
    for (const variable of promptVariables(template)) {
      if (allowed.has(variable) || extra.includes(variable) || everywhere(variable)) continue;
      const listed = [...allowed, ...extra];
      const near = nearestName(variable, [...listed, ...Object.keys(BUILTIN_PROMPT_VARIABLES), ...outputs]);
      const hint = near ? `did you mean {${near}}? ` : "";
      const shown = listed.length > 30 ? `${listed.slice(0, 30).join(", ")}, …` : listed.join(", ");
      problems.add(path, `unknown prompt variable {${variable}} (${hint}allowed: ${shown}, a built-in such as {run_id}, or {steps.NAME.output})`);
    }
  };
  for (const [step, i] of present(raw.steps)) {
    if (!judged(i)) continue;
    const allowed = allowedFor(i);
    for (const [field, template] of Object.entries(step.prompt ?? {})) {
      // The feedback wrapper is where the guard's feedback goes (001).
      if (template !== undefined) report(template, allowed, ["steps", i, "prompt", field], field === "feedback_wrapper" ? ["feedback"] : []);
    }
  }
  const componentNames = new Map<string, number>();
  for (const [component, c] of present(raw.components)) {
    const first = componentNames.get(component.name);
    if (first !== undefined) problems.add(["components", c, "name"], `duplicate component name "${component.name}" (first at components[${first}])`);
    else componentNames.set(component.name, c);
    component.inject_into.forEach((target, j) => {
      const i = stepIndex.get(target);
      if (i === undefined) {
        if (known.stepNames && !known.possibleStepNames.has(target)) problems.add(["components", c, "inject_into", j], `"${target}" is not a step name`);
      } else if (raw.steps[i] && stepType(raw.steps[i]) === "code") problems.add(["components", c, "inject_into", j], `"${target}" is a code step, which has no prompt`);
      else if (judged(i)) report(component.text, allowedFor(i), ["components", c, "text"]);
    });
  }
}

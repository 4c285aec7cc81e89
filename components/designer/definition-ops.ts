import { ANY_STATE } from "@/components/state-machine/to-flow";
import { namedStates } from "@/server/engine/domain/in-state";
import type { StepType } from "@/server/engine/domain/catalogue";
import { DraftError, isPlainObject, workflowOf, type Json, type JsonObject, type Transition, type WorkflowDraft } from "./workflow-draft";

/**
 * Pure edits of a workflow draft, one per designer gesture. Each returns a new draft (the input is
 * never changed) or throws a DraftError whose message the designer shows as is.
 */

// "From any state" in transitions, as the read-only graph spells it.
export { ANY_STATE };

/**
 * A step of the draft. `in_state` as written: one state, a list of states, "*" (any state, as a
 * fallback), or absent, which the seeds' format reads as "*" (server/engine/domain/in-state.ts).
 */
export type Step = JsonObject & { name: string; in_state?: string | string[] };

/** Where a step runs, read from the draft: a state, a list of states, or "*". */
export function inStateOf(step: JsonObject): string | readonly string[] {
  if (typeof step.in_state === "string") return step.in_state;
  if (Array.isArray(step.in_state)) return step.in_state.filter((state): state is string => typeof state === "string");
  return ANY_STATE;
}

/** The states a step names (empty for a "*" step). */
export function namedStatesOf(step: JsonObject): readonly string[] {
  return namedStates(inStateOf(step));
}

/** A step's place as a label: `a`, `a, b`, or `*`. */
export function placeOf(step: JsonObject): string {
  const inState = inStateOf(step);
  return typeof inState === "string" ? inState : inState.join(", ");
}

function isStepInState(step: Json): step is Step {
  if (!isPlainObject(step) || typeof step.name !== "string") return false;
  return step.in_state === undefined || typeof step.in_state === "string" || (Array.isArray(step.in_state) && step.in_state.every((state) => typeof state === "string"));
}

/** What the canvas draws, read tolerantly: entries that are not what the format expects are skipped. */
export interface MachineOutline {
  readonly states: readonly string[];
  readonly initial: string | null;
  readonly finals: readonly string[];
  /** With their index in state_machine.transitions, which the transition operations take. */
  readonly transitions: readonly (Transition & { readonly index: number })[];
  readonly steps: readonly Step[];
}

export function outline(draft: WorkflowDraft): MachineOutline {
  const workflow = workflowOf(draft);
  const machine = isPlainObject(workflow.state_machine) ? workflow.state_machine : {};
  const strings = (value: Json | undefined) => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : []);
  const transitions = Array.isArray(machine.transitions)
    ? machine.transitions.flatMap((transition, index) => (isTransition(transition) ? [{ from: transition.from, to: transition.to, ...(transition.condition === undefined ? {} : { condition: transition.condition }), index }] : []))
    : [];
  const steps = Array.isArray(workflow.steps) ? workflow.steps.filter(isStepInState) : [];
  return {
    states: strings(machine.states),
    initial: typeof machine.initial_state === "string" ? machine.initial_state : null,
    finals: strings(machine.final_states),
    transitions,
    steps,
  };
}

function isTransition(value: Json): value is JsonObject & Transition {
  return isPlainObject(value) && typeof value.from === "string" && typeof value.to === "string" && (value.condition === undefined || typeof value.condition === "string");
}

/**
 * The step a state runs (the first one that names it, alone or in a list), which the inspector
 * edits; for the "any state" node, the first "*" step. A state without a step of its own runs
 * the "*" step (`fallbackStep`).
 */
export function stepIn(machine: MachineOutline, state: string): Step | undefined {
  if (state === ANY_STATE) return fallbackStep(machine);
  return machine.steps.find((step) => namedStatesOf(step).includes(state));
}

/** The first step that runs in any state ("*", or no in_state), if any. */
export function fallbackStep(machine: MachineOutline): Step | undefined {
  return machine.steps.find((step) => inStateOf(step) === ANY_STATE);
}

export function stepOf(draft: WorkflowDraft, state: string): Step | undefined {
  return stepIn(outline(draft), state);
}

// ---- editing helpers: clone once, then change the clone in place ----

function edit(draft: WorkflowDraft, change: (workflow: JsonObject, machine: MachineParts) => void): WorkflowDraft {
  const next = structuredClone(draft) as WorkflowDraft;
  const workflow = workflowOf(next);
  if (!isPlainObject(workflow.state_machine)) workflow.state_machine = {};
  const machine = workflow.state_machine;
  if (!Array.isArray(machine.states)) machine.states = [];
  if (!Array.isArray(machine.final_states)) machine.final_states = [];
  if (!Array.isArray(machine.transitions)) machine.transitions = [];
  if (!Array.isArray(workflow.steps)) workflow.steps = [];
  change(workflow, machine as MachineParts);
  return next;
}

type MachineParts = JsonObject & { states: Json[]; final_states: Json[]; transitions: Json[]; initial_state?: Json };

function stepsOf(workflow: JsonObject): Step[] {
  return (workflow.steps as Json[]).filter((step): step is Step => isPlainObject(step) && typeof step.name === "string");
}

function requireState(machine: MachineParts, name: string, allowAny = false): void {
  if (allowAny && name === ANY_STATE) return;
  if (!machine.states.includes(name)) throw new DraftError(`state "${name}" does not exist`);
}

function requireStep(workflow: JsonObject, name: string): Step {
  const step = stepsOf(workflow).find((candidate) => candidate.name === name);
  if (!step) throw new DraftError(`step "${name}" does not exist`);
  return step;
}

function checkNewStateName(machine: MachineParts, name: string): void {
  if (name.trim() === "") throw new DraftError("a state needs a name");
  if (name === ANY_STATE) throw new DraftError(`"${ANY_STATE}" means any state and cannot name one`);
  if (machine.states.includes(name)) throw new DraftError(`state "${name}" already exists`);
}

function uniqueName(taken: readonly Json[], base: string, first = 1): string {
  for (let index = first; ; index += 1) {
    const candidate = index === 0 ? base : `${base}_${index}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

// ---- states ----

/** Adds a state named `name`, or state_N (the first free N) when no name is given. */
export function addState(draft: WorkflowDraft, name?: string): { draft: WorkflowDraft; name: string } {
  let added = "";
  const next = edit(draft, (_workflow, machine) => {
    added = name ?? uniqueName(machine.states, "state");
    checkNewStateName(machine, added);
    machine.states.push(added);
  });
  return { draft: next, name: added };
}

/** Renames a state everywhere the document names it. */
export function renameState(draft: WorkflowDraft, from: string, to: string): WorkflowDraft {
  return edit(draft, (workflow, machine) => {
    requireState(machine, from);
    if (from === to) return;
    checkNewStateName(machine, to);
    const swap = (value: Json | undefined) => (value === from ? to : value);
    machine.states = machine.states.map((state) => swap(state) as Json);
    machine.final_states = machine.final_states.map((state) => swap(state) as Json);
    if (machine.initial_state === from) machine.initial_state = to;
    for (const transition of machine.transitions) {
      if (!isPlainObject(transition)) continue;
      if (transition.from === from) transition.from = to;
      if (transition.to === from) transition.to = to;
    }
    for (const step of stepsOf(workflow)) {
      if (step.in_state === from) step.in_state = to;
      if (Array.isArray(step.in_state)) step.in_state = step.in_state.map((state) => swap(state) as Json) as string[];
      if (step.transition_to === from) step.transition_to = to;
      if (isPlainObject(step.transition_map)) for (const [answer, target] of Object.entries(step.transition_map)) if (target === from) step.transition_map[answer] = to;
    }
  });
}

/** Deletes a state with its transitions and steps. */
export function deleteState(draft: WorkflowDraft, name: string): WorkflowDraft {
  return edit(draft, (workflow, machine) => {
    requireState(machine, name);
    machine.states = machine.states.filter((state) => state !== name);
    machine.final_states = machine.final_states.filter((state) => state !== name);
    // Left empty rather than moved to another state: the check then asks for a new initial state.
    if (machine.initial_state === name) machine.initial_state = "";
    machine.transitions = machine.transitions.filter((transition) => !isPlainObject(transition) || (transition.from !== name && transition.to !== name));
    // A step listed in several states stays in the others; one that ran only here goes with it.
    for (const step of stepsOf(workflow)) {
      if (Array.isArray(step.in_state)) step.in_state = step.in_state.filter((state) => state !== name);
    }
    workflow.steps = (workflow.steps as Json[]).filter((step) => !isPlainObject(step) || (step.in_state !== name && !(Array.isArray(step.in_state) && step.in_state.length === 0)));
  });
}

export function setInitial(draft: WorkflowDraft, name: string): WorkflowDraft {
  return edit(draft, (_workflow, machine) => {
    requireState(machine, name);
    machine.initial_state = name;
  });
}

export function toggleFinal(draft: WorkflowDraft, name: string): WorkflowDraft {
  return edit(draft, (_workflow, machine) => {
    requireState(machine, name);
    machine.final_states = machine.final_states.includes(name) ? machine.final_states.filter((state) => state !== name) : [...machine.final_states, name];
  });
}

// ---- transitions (addressed by their index in state_machine.transitions) ----

/**
 * Adds a transition. Without a condition it is "true", or the source step's guard id when the
 * source state runs an action pair (move on once its artifact is accepted).
 */
export function addTransition(draft: WorkflowDraft, from: string, to: string, condition?: string): WorkflowDraft {
  return edit(draft, (workflow, machine) => {
    requireState(machine, from, true);
    requireState(machine, to);
    const step = stepsOf(workflow).find((candidate) => namedStatesOf(candidate).includes(from));
    const chosen = condition ?? (step && isActionPair(step) && typeof step.guard_id === "string" ? step.guard_id : "true");
    const duplicate = machine.transitions.some((transition) => isPlainObject(transition) && transition.from === from && transition.to === to && (transition.condition ?? "") === chosen);
    if (duplicate) throw new DraftError(`a transition from "${from}" to "${to}" when ${chosen} already exists`);
    machine.transitions.push({ from, to, condition: chosen });
  });
}

function transitionAt(machine: MachineParts, index: number): JsonObject {
  const transition = machine.transitions[index];
  if (!isPlainObject(transition)) throw new DraftError(`transition ${index + 1} does not exist`);
  return transition;
}

export function deleteTransition(draft: WorkflowDraft, index: number): WorkflowDraft {
  return edit(draft, (_workflow, machine) => {
    transitionAt(machine, index);
    machine.transitions.splice(index, 1);
  });
}

/** An empty condition removes it: the transition then always applies. */
export function setTransitionCondition(draft: WorkflowDraft, index: number, condition: string): WorkflowDraft {
  return edit(draft, (_workflow, machine) => {
    const transition = transitionAt(machine, index);
    if (condition.trim() === "") delete transition.condition;
    else transition.condition = condition;
  });
}

// ---- steps ----

export function isActionPair(step: JsonObject): boolean {
  return step.type === "action_pair" || (step.type === undefined && step.guards !== undefined);
}

/**
 * Adds a step of the given type to a state, with defaults that pass the check: an action pair
 * gets a task, the default generator and a syntax guard; a transition step maps its one answer
 * to the next state; a code step starts as a comment in the workflow's language.
 */
export function addStep(draft: WorkflowDraft, state: string, type: StepType = "action_pair"): { draft: WorkflowDraft; name: string } {
  let added = "";
  const next = edit(draft, (workflow, machine) => {
    requireState(machine, state);
    const steps = stepsOf(workflow);
    const base = state.replace(/[^A-Za-z0-9_]/g, "_");
    added = uniqueName(steps.map((step) => step.name), base, 0);
    const common = { name: added, type, in_state: state };
    const guardId = () => uniqueName(steps.map((step) => step.guard_id ?? null), `g_${base}`, 0);
    const nextState = machine.states.find((candidate) => typeof candidate === "string" && candidate !== state) ?? state;
    const python = typeof workflow.language === "string" && /^(py|python)$/i.test(workflow.language);
    const fresh: Record<StepType, JsonObject> = {
      action_pair: { ...common, guard_id: guardId(), generator: { kind: "llm" }, prompt: { task: `Write the code for ${state}` }, guards: [{ kind: "syntax" }] },
      llm: { ...common, prompt: { task: `Describe what to do in ${state}` } },
      code: { ...common, code: python ? "# Read and set declared context variables: context.name\n" : "// Read and set declared context variables: context.name\n" },
      transition: { ...common, prompt: { task: "Answer with one word: next" }, transition_map: { next: nextState } },
    };
    (workflow.steps as Json[]).push(fresh[type]);
  });
  return { draft: next, name: added };
}

/** The step fields the inspector edits; prompt, generator and guards have their own operations. */
export type StepPatch = Partial<Record<"name" | "type" | "guard_id" | "on_failure" | "code" | "transition_to", string> & Record<"max_retries", number> & Record<"guard_artifact_deps", string[]>>;

/** Sets step fields; an empty text, an empty list or NaN removes the field (its default applies). */
export function updateStep(draft: WorkflowDraft, stepName: string, patch: StepPatch): WorkflowDraft {
  return edit(draft, (workflow, machine) => {
    const step = requireStep(workflow, stepName);
    const others = stepsOf(workflow).filter((candidate) => candidate !== step);
    if (patch.name !== undefined) {
      if (patch.name.trim() === "") throw new DraftError("a step needs a name");
      if (others.some((other) => other.name === patch.name)) throw new DraftError(`step "${patch.name}" already exists`);
    }
    if (patch.guard_id !== undefined && patch.guard_id !== "" && patch.guard_id !== step.guard_id) {
      if (others.some((other) => other.guard_id === patch.guard_id)) throw new DraftError(`guard id "${patch.guard_id}" is already used`);
      renameGuardId(workflow, machine, step.guard_id, patch.guard_id);
    }
    if (patch.max_retries !== undefined && !Number.isNaN(patch.max_retries)) delete step.rmax; // one of the two, never both
    for (const [field, value] of Object.entries(patch) as [string, Json][]) {
      const empty = value === "" || (Array.isArray(value) && value.length === 0) || (typeof value === "number" && Number.isNaN(value));
      if (field === "name") step.name = value as string;
      else if (empty) delete step[field];
      else step[field] = value;
    }
  });
}

/**
 * Where a step runs: one state, several (a list, kept in the machine's state order), or "*"
 * (any state, as a fallback). A list of one is written as the state alone.
 */
export function setStepStates(draft: WorkflowDraft, stepName: string, inState: string | readonly string[]): WorkflowDraft {
  return edit(draft, (workflow, machine) => {
    const step = requireStep(workflow, stepName);
    if (inState === ANY_STATE) {
      step.in_state = ANY_STATE;
      return;
    }
    const chosen = typeof inState === "string" ? [inState] : [...new Set(inState)];
    if (chosen.length === 0) throw new DraftError(`step "${stepName}" needs at least one state, or "any state"`);
    chosen.forEach((state) => requireState(machine, state));
    const ordered = machine.states.filter((state): state is string => typeof state === "string" && chosen.includes(state));
    step.in_state = ordered.length === 1 ? ordered[0]! : ordered;
  });
}

/** Conditions and dependencies that named the old guard id follow it. */
function renameGuardId(workflow: JsonObject, machine: MachineParts, from: Json | undefined, to: string): void {
  if (typeof from !== "string") return;
  for (const transition of machine.transitions) if (isPlainObject(transition) && transition.condition === from) transition.condition = to;
  for (const step of stepsOf(workflow)) if (Array.isArray(step.guard_artifact_deps)) step.guard_artifact_deps = step.guard_artifact_deps.map((dep) => (dep === from ? to : dep));
}

export const PROMPT_PARTS = ["role", "constraints", "task", "feedback_wrapper"] as const;
export type PromptPart = (typeof PROMPT_PARTS)[number];

/** Sets one part of the prompt; a prompt written as plain text becomes `{ task }` first. */
export function setPromptPart(draft: WorkflowDraft, stepName: string, part: PromptPart, text: string): WorkflowDraft {
  return edit(draft, (workflow) => {
    const step = requireStep(workflow, stepName);
    const prompt: JsonObject = typeof step.prompt === "string" ? { task: step.prompt } : isPlainObject(step.prompt) ? step.prompt : {};
    if (text === "") delete prompt[part];
    else prompt[part] = text;
    step.prompt = prompt;
  });
}

/** The generator as `{ kind, ...options }`; options with empty values are left out. */
export function setGenerator(draft: WorkflowDraft, stepName: string, generator: JsonObject | null): WorkflowDraft {
  return edit(draft, (workflow) => {
    const step = requireStep(workflow, stepName);
    if (generator === null) delete step.generator;
    else step.generator = Object.fromEntries(Object.entries(generator).filter(([, value]) => value !== "" && value !== undefined));
  });
}

function guardsOf(step: Step): Json[] {
  if (!Array.isArray(step.guards)) step.guards = [];
  return step.guards;
}

/** Appends a guard; `options` are a new guard's starting options (the catalogue's starter). */
export function addGuard(draft: WorkflowDraft, stepName: string, kind: string, options: JsonObject = {}): WorkflowDraft {
  return edit(draft, (workflow) => {
    guardsOf(requireStep(workflow, stepName)).push({ kind, ...structuredClone(options) });
  });
}

export function removeGuard(draft: WorkflowDraft, stepName: string, index: number): WorkflowDraft {
  return edit(draft, (workflow) => {
    const guards = guardsOf(requireStep(workflow, stepName));
    if (index < 0 || index >= guards.length) throw new DraftError(`guard ${index + 1} does not exist`);
    guards.splice(index, 1);
  });
}

/** Replaces a guard by its kind and options (the options object must not hold `kind`). */
export function setGuard(draft: WorkflowDraft, stepName: string, index: number, kind: string, options: JsonObject): WorkflowDraft {
  return edit(draft, (workflow) => {
    const guards = guardsOf(requireStep(workflow, stepName));
    if (index < 0 || index >= guards.length) throw new DraftError(`guard ${index + 1} does not exist`);
    if ("kind" in options) throw new DraftError("options cannot set the kind; choose it from the list");
    guards[index] = { kind, ...options };
  });
}

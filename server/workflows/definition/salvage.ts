/**
 * When the shape check fails, the structural checks still run over the parts that did parse, so
 * a bad guard option in one step does not hide an unreachable state elsewhere. What could not be
 * parsed leaves a hole (an `undefined` at its index, so problem paths keep their indexes), and
 * `Knowledge` says which conclusions the holes make unsafe: a check that would need a missing
 * part stays silent rather than report a follow-on of a problem already reported.
 */
import type { z } from "zod";
import { isFallbackStep, namedStates } from "../../engine/domain/in-state";
import { componentSchema, nameSchema, stepSchema, transitionSchema, workflowSchema, type RawComponent, type RawStep, type RawTransition } from "./definition-schema";
import { toolSchema, type RawTool } from "./tools/tool-schema";
import { workflowNameSchema } from "./workflow-name";

/** The workflow the structural checks read: a parsed RawWorkflow, or the parts of one that parsed. */
export interface CheckableWorkflow {
  /** The workflow's own name, when it parsed (a workflow tool must not name it). */
  readonly name?: string;
  /** Declared tools by name; a declaration that did not parse is undefined (its name is still declared). */
  readonly tools?: Readonly<Record<string, RawTool | undefined>>;
  /** Only the names are read. */
  readonly context?: Readonly<Record<string, unknown>>;
  readonly components?: readonly (RawComponent | undefined)[];
  readonly state_machine: {
    readonly states: readonly (string | undefined)[];
    readonly initial_state: string | undefined;
    readonly final_states: readonly (string | undefined)[];
    readonly transitions?: readonly (RawTransition | undefined)[];
  };
  readonly steps: readonly (RawStep | undefined)[];
  /** Guard ids forming the goal (check-goal.ts). */
  readonly goal?: readonly (string | undefined)[];
}

/** Which whole-workflow conclusions are safe to draw. Everything is true for a parsed workflow. */
export interface Knowledge {
  /** Every declared state is known, so "is not a declared state" is true when said. */
  readonly states: boolean;
  /** Every edge is known (transitions, step targets), except edges to unknown targets from `openStates`. */
  readonly graph: boolean;
  /** States with a way out whose target did not parse: any state may be reachable from them. */
  readonly openStates: ReadonlySet<string>;
  /** From a step's state to each name a misspelt key of it holds: it may have been a way out. */
  readonly possibleEdges: readonly (readonly [string, string])[];
  /** The initial state and every final state parsed: reachability and "no path to a final state". */
  readonly ends: boolean;
  /** Every action_pair step and its guard id is known: "not produced by any step", condition names. */
  readonly producers: boolean;
  /** Guard ids of steps that did not parse whole: they may be produced, so they are never called unknown. */
  readonly possibleProducers: ReadonlySet<string>;
  /** Every context variable name is known: condition names and prompt variables. */
  readonly context: boolean;
  /** Every declared tool's name is known: agent steps' tools. */
  readonly tools: boolean;
  /** Every step name is known: components' inject_into. */
  readonly stepNames: boolean;
  /** Names of steps that did not parse: never called unknown. */
  readonly possibleStepNames: ReadonlySet<string>;
  /** Steps with a field that did not parse: their per-step rules and prompts are not checked. */
  readonly partialSteps: ReadonlySet<number>;
  /** Transitions kept only as an edge (their condition or a key did not parse). */
  readonly partialTransitions: ReadonlySet<number>;
}

export const COMPLETE_KNOWLEDGE: Knowledge = {
  states: true,
  graph: true,
  openStates: new Set(),
  possibleEdges: [],
  ends: true,
  producers: true,
  possibleProducers: new Set(),
  context: true,
  tools: true,
  stepNames: true,
  possibleStepNames: new Set(),
  partialSteps: new Set(),
  partialTransitions: new Set(),
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Flags = "states" | "graph" | "ends" | "producers" | "context" | "tools" | "stepNames";
/** What salvaging learns: the flags, and the names of parts that did not parse whole. */
type Conclusions = Mutable<Pick<Knowledge, Flags>> & {
  openStates: Set<string>;
  possibleEdges: [string, string][];
  possibleProducers: Set<string>;
  possibleStepNames: Set<string>;
};

/** Text values inside a value that did not parse (a misspelt key's value, say), trimmed: names it may have meant. */
function namesIn(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return value.trim() ? [value.trim()] : [];
  if (depth > 2 || typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap((item) => namesIn(item, depth + 1));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Items that are present, with their index in the document. */
export function* present<T>(items: readonly (T | undefined)[] | undefined): Generator<[T, number]> {
  for (const [index, item] of (items ?? []).entries()) if (item !== undefined) yield [item, index];
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** A list whose elements parse one by one; `complete` is false when the list or any element did not. */
function listOf<T>(schema: z.ZodType<T>, value: unknown): { items: (T | undefined)[]; complete: boolean } {
  if (!Array.isArray(value)) return { items: [], complete: false };
  const items = value.map((item) => parsed(schema, item));
  return { items, complete: items.every((item) => item !== undefined) };
}

const hasUnknownKeys = (value: Record<string, unknown>, shape: object) => Object.keys(value).some((key) => !Object.hasOwn(shape, key));

/** The parts of a workflow that failed the shape check, and what may be concluded from them. */
export function salvageWorkflow(workflow: Record<string, unknown>): { workflow: CheckableWorkflow; known: Knowledge } {
  const known: Conclusions = {
    states: true,
    graph: true,
    ends: true,
    producers: true,
    context: true,
    tools: true,
    stepNames: true,
    openStates: new Set(),
    possibleEdges: [],
    possibleProducers: new Set(),
    possibleStepNames: new Set(),
  };
  const partialSteps = new Set<number>();
  const partialTransitions = new Set<number>();

  // A misspelt section (`contxt:`) may have been meant to declare variables.
  if (hasUnknownKeys(workflow, workflowSchema.shape) || (workflow.context !== undefined && !isObject(workflow.context))) known.context = false;
  const context = isObject(workflow.context) ? workflow.context : {};
  // A misspelt `tool:` may have declared the tools the steps name.
  if (hasUnknownKeys(workflow, workflowSchema.shape) || (workflow.tools !== undefined && !isObject(workflow.tools))) known.tools = false;
  const tools = isObject(workflow.tools) ? Object.fromEntries(Object.entries(workflow.tools).map(([name, tool]) => [name, parsed(toolSchema, tool)])) : undefined;
  const name = parsed(workflowNameSchema, workflow.name);

  const machine = workflow.state_machine;
  const state_machine: Mutable<CheckableWorkflow["state_machine"]> = { states: [], initial_state: undefined, final_states: [], transitions: [] };
  if (!isObject(machine)) {
    Object.assign(known, { states: false, graph: false, ends: false });
  } else {
    const states = listOf(nameSchema, machine.states);
    const finals = listOf(nameSchema, machine.final_states);
    state_machine.states = states.items;
    state_machine.initial_state = parsed(nameSchema, machine.initial_state);
    state_machine.final_states = finals.items;
    state_machine.transitions = machine.transitions === undefined ? [] : Array.isArray(machine.transitions) ? machine.transitions.map((t, i) => salvageTransition(t, i, known, partialTransitions)) : [];
    if (!states.complete || states.items.length === 0) known.states = false;
    if (!finals.complete || state_machine.initial_state === undefined) known.ends = false;
    // `transition:` for `transitions:` would hide edges.
    if ((machine.transitions !== undefined && !Array.isArray(machine.transitions)) || hasUnknownKeys(machine, workflowSchema.shape.state_machine.shape)) known.graph = false;
  }

  const steps = Array.isArray(workflow.steps) ? workflow.steps.map((step, index) => salvageStep(step, index, known, partialSteps)) : [];
  if (!Array.isArray(workflow.steps)) Object.assign(known, { graph: false, producers: false, stepNames: false });

  const components = workflow.components === undefined ? [] : listOf(componentSchema, workflow.components).items;
  const goal = workflow.goal === undefined ? undefined : listOf(nameSchema, workflow.goal).items;
  return { workflow: { name, context, tools, components, state_machine, steps, ...(goal && { goal }) }, known: { ...known, partialSteps, partialTransitions } };
}

/**
 * A transition whose `from` and `to` parsed is an edge even if its condition did not: counting
 * an edge that may not exist only makes the graph checks say less. It is marked partial, so it
 * is never judged as unconditional. A lost `to` leaves its state open; a lost `from` could be
 * any state, so the graph is unknown.
 */
function salvageTransition(value: unknown, index: number, known: Conclusions, partialTransitions: Set<number>): RawTransition | undefined {
  const whole = parsed(transitionSchema, value);
  if (whole) return whole;
  const from = isObject(value) ? parsed(nameSchema, value.from) : undefined;
  const to = isObject(value) ? parsed(nameSchema, value.to) : undefined;
  // A "*" transition to a lost target leaves every state open.
  if (from === undefined || (from === "*" && to === undefined)) known.graph = false;
  else if (to === undefined) known.openStates.add(from);
  else {
    partialTransitions.add(index);
    return { from, to };
  }
  return undefined;
}

/** A step from the fields that parsed; undefined when it has no usable name and state. */
function salvageStep(value: unknown, index: number, known: Conclusions, partialSteps: Set<number>): RawStep | undefined {
  if (!isObject(value)) return void Object.assign(known, { graph: false, producers: false, stepNames: false });
  const shape: Record<string, z.ZodType> = stepSchema.shape;
  const fields: Record<string, unknown> = {};
  const failed = new Set<string>();
  const unknownKeys = Object.keys(value).filter((key) => !Object.hasOwn(shape, key));
  for (const [key, field] of Object.entries(value)) {
    if (!Object.hasOwn(shape, key)) continue;
    const result = shape[key]?.safeParse(field);
    if (result?.success) fields[key] = result.data;
    else failed.add(key);
  }
  const inState = fields.in_state as RawStep["in_state"] | undefined;
  if (failed.size === 0 && unknownKeys.length === 0 && typeof fields.name === "string" && inState !== undefined) return fields as RawStep;

  // The names it carries (or may have meant under a misspelt key) are never reported as unknown.
  const guessed = [...namesIn(value.name), ...namesIn(value.guard_id), ...unknownKeys.flatMap((key) => namesIn(value[key]))];
  for (const name of guessed) {
    known.possibleStepNames.add(name);
    known.possibleProducers.add(name);
  }
  // A lost guard id could be any name; a lost name, any step.
  if (failed.has("guard_id")) known.producers = false;
  if (typeof fields.name !== "string" && namesIn(value.name).length === 0) known.stepNames = false;
  // A way out that did not parse could lead anywhere; a misspelt key, to any name it holds.
  const lostTarget = failed.has("transition_to") || failed.has("transition_map");
  const misspeltTargets = unknownKeys.flatMap((key) => namesIn(value[key]));
  const hasWayOut = lostTarget || misspeltTargets.length > 0 || fields.transition_to !== undefined || fields.transition_map !== undefined;
  // A step adds edges only from its own states: with them unknown (or every state, for "*"), its ways out cannot be placed.
  if ((inState === undefined || isFallbackStep(inState)) && hasWayOut) known.graph = false;
  if (inState === undefined) return undefined;
  const sources = namedStates(inState);
  if (lostTarget) sources.forEach((state) => known.openStates.add(state));
  for (const target of misspeltTargets) for (const state of sources) known.possibleEdges.push([state, target]);
  if (typeof fields.name !== "string") {
    // Its known ways out still count as edges; nothing else about it is judged.
    if (fields.transition_to !== undefined || fields.transition_map !== undefined) sources.forEach((state) => known.openStates.add(state));
    return undefined;
  }

  partialSteps.add(index);
  // Guards that did not parse still make the step an action pair when it has no explicit type.
  if (fields.type === undefined && failed.has("guards") && Array.isArray(value.guards) && value.guards.length > 0) fields.type = "action_pair";
  // A misspelt key may have been `type` or `guards`: whether it produces its guard id is then unknown, but it may.
  const typeKnown = unknownKeys.length === 0 && !failed.has("type") && (fields.type !== undefined || !failed.has("guards"));
  if (!typeKnown) delete fields.guard_id;
  return fields as RawStep;
}

/**
 * When the shape check fails, the structural checks still run over the parts that did parse, so
 * a bad guard option in one step does not hide an unreachable state elsewhere. What could not be
 * parsed leaves a hole (an `undefined` at its index, so problem paths keep their indexes), and
 * `Knowledge` says which conclusions the holes make unsafe: a check that would need a missing
 * part stays silent rather than report a follow-on of a problem already reported.
 */
import type { z } from "zod";
import { componentSchema, nameSchema, stepSchema, transitionSchema, workflowSchema, type RawComponent, type RawStep, type RawTransition } from "./definition-schema";

/** The workflow the structural checks read: a parsed RawWorkflow, or the parts of one that parsed. */
export interface CheckableWorkflow {
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
}

/** Which whole-workflow conclusions are safe to draw. Everything is true for a parsed workflow. */
export interface Knowledge {
  /** Every declared state is known, so "is not a declared state" is true when said. */
  readonly states: boolean;
  /** Every edge is known (states, initial and final states, transitions, step targets): reachability. */
  readonly graph: boolean;
  /** Every action_pair step and its guard id is known: "not produced by any step", condition names. */
  readonly producers: boolean;
  /** Every context variable name is known: condition names and prompt variables. */
  readonly context: boolean;
  /** Every step name is known: components' inject_into. */
  readonly stepNames: boolean;
  /** Steps with a field that did not parse: their per-step rules and prompts are not checked. */
  readonly partialSteps: ReadonlySet<number>;
}

export const COMPLETE_KNOWLEDGE: Knowledge = { states: true, graph: true, producers: true, context: true, stepNames: true, partialSteps: new Set() };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Conclusions = Mutable<Omit<Knowledge, "partialSteps">>;

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
  const known: Conclusions = { states: true, graph: true, producers: true, context: true, stepNames: true };
  const partialSteps = new Set<number>();

  // A misspelt section (`contxt:`) may have been meant to declare variables.
  if (hasUnknownKeys(workflow, workflowSchema.shape) || (workflow.context !== undefined && !isObject(workflow.context))) known.context = false;
  const context = isObject(workflow.context) ? workflow.context : {};

  const machine = workflow.state_machine;
  const state_machine: Mutable<CheckableWorkflow["state_machine"]> = { states: [], initial_state: undefined, final_states: [], transitions: [] };
  if (!isObject(machine)) {
    known.states = false;
    known.graph = false;
  } else {
    const states = listOf(nameSchema, machine.states);
    const finals = listOf(nameSchema, machine.final_states);
    const transitions = machine.transitions === undefined ? { items: [], complete: true } : listOf(transitionSchema, machine.transitions);
    state_machine.states = states.items;
    state_machine.initial_state = parsed(nameSchema, machine.initial_state);
    state_machine.final_states = finals.items;
    state_machine.transitions = transitions.items;
    if (!states.complete || states.items.length === 0) known.states = false;
    const edgesKnown = known.states && finals.complete && transitions.complete && state_machine.initial_state !== undefined;
    // `transition:` for `transitions:` would hide edges.
    if (!edgesKnown || hasUnknownKeys(machine, workflowSchema.shape.state_machine.shape)) known.graph = false;
  }

  const steps = Array.isArray(workflow.steps) ? workflow.steps.map((step, index) => salvageStep(step, index, known, partialSteps)) : [];
  if (!Array.isArray(workflow.steps)) Object.assign(known, { graph: false, producers: false, stepNames: false });

  const components = workflow.components === undefined ? [] : listOf(componentSchema, workflow.components).items;
  return { workflow: { context, components, state_machine, steps }, known: { ...known, partialSteps } };
}

/** A step from the fields that parsed; undefined when it has no usable name and state. */
function salvageStep(value: unknown, index: number, known: Conclusions, partialSteps: Set<number>): RawStep | undefined {
  const lost = () => Object.assign(known, { graph: false, producers: false, stepNames: false });
  if (!isObject(value)) return void lost();
  const shape: Record<string, z.ZodType> = stepSchema.shape;
  const fields: Record<string, unknown> = {};
  const failed = new Set<string>();
  const unknownKeys = hasUnknownKeys(value, shape);
  for (const [key, field] of Object.entries(value)) {
    if (!Object.hasOwn(shape, key)) continue;
    const result = shape[key]?.safeParse(field);
    if (result?.success) fields[key] = result.data;
    else failed.add(key);
  }
  if (typeof fields.name !== "string" || typeof fields.in_state !== "string") return void lost();
  if (failed.size === 0 && !unknownKeys) return fields as RawStep;

  partialSteps.add(index);
  // Guards that did not parse still make the step an action pair when it has no explicit type.
  if (fields.type === undefined && failed.has("guards") && Array.isArray(value.guards) && value.guards.length > 0) fields.type = "action_pair";
  // A misspelt key may have been `type` or `guards`: then whether the step produces an artifact is unknown.
  const typeKnown = !unknownKeys && !failed.has("type") && (fields.type !== undefined || !failed.has("guards"));
  if (!typeKnown || failed.has("guard_id")) {
    delete fields.guard_id;
    known.producers = false;
  }
  if (unknownKeys || failed.has("transition_to") || failed.has("transition_map")) known.graph = false;
  return fields as RawStep;
}

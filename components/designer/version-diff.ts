import { lineDiff, type DiffLine } from "@/server/services/escalations/diff-lines";
import { ANY_STATE, namedStatesOf, placeOf, type MachineOutline, type Step } from "./definition-ops";
import { isPlainObject, type Json, type JsonObject } from "./workflow-draft";

/**
 * What changed between two versions of a workflow, by the parts a person thinks in: states,
 * transitions and steps. Pure, so the version history's picture and its unit tests agree.
 */
export type Change = "added" | "removed" | "changed" | "unchanged";

export interface StateChange {
  readonly name: string;
  readonly change: Change;
  /** Why a state kept in both versions counts as changed: "initial", "final", "step". */
  readonly reasons: readonly string[];
}

export interface TransitionChange {
  /** from→to, with "#2" for a second transition between the same states. */
  readonly key: string;
  readonly from: string;
  readonly to: string;
  readonly change: Change;
  readonly before?: string;
  readonly after?: string;
}

export interface StepChange {
  readonly name: string;
  /** Where it runs, as a label: a state, `a, b` for a list, `*` for any state. */
  readonly state: string;
  /** The states it names ("*" for a step that runs in any state). */
  readonly states: readonly string[];
  readonly change: Change;
  /** The step's fields that differ (prompt, guards, max_retries...), for a step in both versions. */
  readonly fields: readonly string[];
  /** The state it ran in before, when it moved to another one. */
  readonly movedFrom?: string;
  /** The states it named before it moved. */
  readonly movedFromStates?: readonly string[];
}

export interface MachineDiff {
  readonly states: readonly StateChange[];
  readonly transitions: readonly TransitionChange[];
  readonly steps: readonly StepChange[];
}

const ALWAYS = "true";

/** Every state, transition and step of either version, each with what happened to it. */
export function diffMachines(before: MachineOutline, after: MachineOutline): MachineDiff {
  const steps = diffSteps(before.steps, after.steps);
  const changedStepStates = new Set(steps.filter((step) => step.change !== "unchanged").flatMap((step) => [...step.states, ...(step.movedFromStates ?? [])]));
  const states = union(before.states, after.states).map((name): StateChange => {
    const inBefore = before.states.includes(name);
    const inAfter = after.states.includes(name);
    if (!inBefore) return { name, change: "added", reasons: [] };
    if (!inAfter) return { name, change: "removed", reasons: [] };
    const reasons = [
      ...((before.initial === name) !== (after.initial === name) ? ["initial"] : []),
      ...(before.finals.includes(name) !== after.finals.includes(name) ? ["final"] : []),
      ...(changedStepStates.has(name) ? ["step"] : []),
    ];
    return { name, change: reasons.length > 0 ? "changed" : "unchanged", reasons };
  });
  return { states, transitions: diffTransitions(before, after), steps };
}

function union(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second])];
}

/** Transitions are matched by their ends (a transition is "the way from A to B"), so a new condition is a change, not a swap. */
function diffTransitions(before: MachineOutline, after: MachineOutline): TransitionChange[] {
  const keyed = (outline: MachineOutline) => {
    const seen = new Map<string, number>();
    return new Map(
      outline.transitions.map((transition) => {
        const pair = `${transition.from}→${transition.to}`;
        const count = (seen.get(pair) ?? 0) + 1;
        seen.set(pair, count);
        return [count === 1 ? pair : `${pair} #${count}`, transition] as const;
      }),
    );
  };
  const old = keyed(before);
  const current = keyed(after);
  return union([...old.keys()], [...current.keys()]).map((key): TransitionChange => {
    const was = old.get(key);
    const is = current.get(key);
    const ends = (is ?? was)!;
    const base = { key, from: ends.from, to: ends.to };
    if (!was) return { ...base, change: "added", after: is!.condition ?? ALWAYS };
    if (!is) return { ...base, change: "removed", before: was.condition ?? ALWAYS };
    const [conditionBefore, conditionAfter] = [was.condition ?? ALWAYS, is.condition ?? ALWAYS];
    return { ...base, change: conditionBefore === conditionAfter ? "unchanged" : "changed", before: conditionBefore, after: conditionAfter };
  });
}

function where(step: Step): { state: string; states: readonly string[] } {
  const named = namedStatesOf(step);
  return { state: placeOf(step), states: named.length > 0 ? named : [ANY_STATE] };
}

function diffSteps(before: readonly Step[], after: readonly Step[]): StepChange[] {
  const old = new Map(before.map((step) => [step.name, step]));
  const current = new Map(after.map((step) => [step.name, step]));
  return union([...old.keys()], [...current.keys()]).map((name): StepChange => {
    const was = old.get(name);
    const is = current.get(name);
    if (!was) return { name, ...where(is!), change: "added", fields: [] };
    if (!is) return { name, ...where(was), change: "removed", fields: [] };
    const fields = union(Object.keys(was), Object.keys(is)).filter((field) => JSON.stringify(was[field]) !== JSON.stringify(is[field]));
    // A step moved to another state changes both: the state it left and the one it joined.
    return { name, ...where(is), change: fields.length > 0 ? "changed" : "unchanged", fields, ...(placeOf(was) !== placeOf(is) ? { movedFrom: placeOf(was), movedFromStates: where(was).states } : {}) };
  });
}

/** A workflow-wide field (language, description, a context variable, a component...) that differs. */
export interface FieldChange {
  /** "language", "context.attempts", "components.style". */
  readonly field: string;
  readonly change: Exclude<Change, "unchanged">;
  /** Short renderings of the values, for scalars (long texts are cut). */
  readonly before?: string;
  readonly after?: string;
}

// The machine's own parts are diffed by diffMachines.
const MACHINE_FIELDS = new Set(["state_machine", "steps"]);
const SHOWN_LENGTH = 60;

function shown(value: Json): string | undefined {
  if (isPlainObject(value) || Array.isArray(value)) return undefined;
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 1)}…` : text;
}

function diffEntries(prefix: string, before: ReadonlyMap<string, Json>, after: ReadonlyMap<string, Json>): FieldChange[] {
  return union([...before.keys()], [...after.keys()]).flatMap((key): FieldChange[] => {
    const field = prefix === "" ? key : `${prefix}.${key}`;
    const [was, is] = [before.get(key), after.get(key)];
    const values = { ...(was === undefined || shown(was) === undefined ? {} : { before: shown(was) }), ...(is === undefined || shown(is) === undefined ? {} : { after: shown(is) }) };
    if (was === undefined) return [{ field, change: "added", ...values }];
    if (is === undefined) return [{ field, change: "removed", ...values }];
    return JSON.stringify(was) === JSON.stringify(is) ? [] : [{ field, change: "changed", ...values }];
  });
}

const entriesOf = (value: Json | undefined) => new Map(isPlainObject(value) ? Object.entries(value) : []);
const componentsOf = (value: Json | undefined) => new Map(Array.isArray(value) ? value.filter(isPlainObject).map((component, index) => [typeof component.name === "string" ? component.name : `#${index + 1}`, component as Json]) : []);

/**
 * The workflow-wide fields that differ between two versions' workflow objects: name, texts,
 * language, failure defaults, and each context variable and component by its name. Together with
 * diffMachines this covers every field of the document.
 */
export function diffWorkflowFields(before: JsonObject, after: JsonObject): FieldChange[] {
  const plain = (workflow: JsonObject) => new Map(Object.entries(workflow).filter(([key]) => !MACHINE_FIELDS.has(key) && key !== "context" && key !== "components"));
  return [...diffEntries("", plain(before), plain(after)), ...diffEntries("context", entriesOf(before.context), entriesOf(after.context)), ...diffEntries("components", componentsOf(before.components), componentsOf(after.components))];
}

export interface NumberedDiffLine extends DiffLine {
  /** Its line number in the older version (removed and same lines) or the newer one (added lines). */
  readonly line: number;
}

/** The escalation review's line diff of two YAML texts, numbered, for the text half of the comparison. */
export function diffText(before: string, after: string): NumberedDiffLine[] {
  let oldLine = 0;
  let newLine = 0;
  return lineDiff(before, after).map((line) => {
    if (line.kind === "added") return { ...line, line: ++newLine };
    if (line.kind === "same") newLine += 1;
    return { ...line, line: ++oldLine };
  });
}

import { lineDiff, type DiffLine } from "@/server/services/escalations/diff-lines";
import type { MachineOutline, Step } from "./definition-ops";

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
  readonly state: string;
  readonly change: Change;
  /** The step's fields that differ (prompt, guards, max_retries...), for a step in both versions. */
  readonly fields: readonly string[];
  /** The state it ran in before, when it moved to another one. */
  readonly movedFrom?: string;
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
  const changedStepStates = new Set(steps.filter((step) => step.change !== "unchanged").flatMap((step) => [step.state, ...(step.movedFrom ? [step.movedFrom] : [])]));
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

function diffSteps(before: readonly Step[], after: readonly Step[]): StepChange[] {
  const old = new Map(before.map((step) => [step.name, step]));
  const current = new Map(after.map((step) => [step.name, step]));
  return union([...old.keys()], [...current.keys()]).map((name): StepChange => {
    const was = old.get(name);
    const is = current.get(name);
    if (!was) return { name, state: is!.in_state, change: "added", fields: [] };
    if (!is) return { name, state: was.in_state, change: "removed", fields: [] };
    const fields = union(Object.keys(was), Object.keys(is)).filter((field) => JSON.stringify(was[field]) !== JSON.stringify(is[field]));
    // A step moved to another state changes both: the state it left and the one it joined.
    return { name, state: is.in_state, change: fields.length > 0 ? "changed" : "unchanged", fields, ...(was.in_state !== is.in_state ? { movedFrom: was.in_state } : {}) };
  });
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

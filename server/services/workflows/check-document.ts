import { parse } from "yaml";
import { validateWorkflowDocument, type ValidationResult } from "@/server/workflows/definition";
import type { DocumentProblem } from "@/server/workflows/document";
import { machineView, type MachineView } from "../runs/machine-view";

export interface DocumentCheck {
  readonly ok: boolean;
  readonly problems: readonly DocumentProblem[];
  /** Where the document relies on a default or an inference: shown apart from problems, never blocking. */
  readonly warnings: readonly DocumentProblem[];
  /** The machine the document describes, when it is valid (the editor's live preview). */
  readonly machine: MachineView | null;
  /** Which state each problem concerns, when its path names one (for marking nodes). */
  readonly problemStates: Readonly<Record<number, string>>;
  /** Which transition (its index in state_machine.transitions) each problem concerns, when its path names one (for marking edges). */
  readonly problemTransitions: Readonly<Record<number, number>>;
  /** Which state each warning concerns, like problemStates (for marking nodes as warned). */
  readonly warningStates: Readonly<Record<number, string>>;
}

/**
 * Validates a workflow document as `dualstate validate` does, for the editor: the problems with
 * their places, the states they concern, and the machine to draw when it is valid.
 */
export function checkWorkflowDocument(text: string, name?: string): DocumentCheck {
  return documentCheckOf(text, validateWorkflowDocument(text, "workflow.yaml", { fallbackName: name }));
}

/** A validation result of `text` as the editor's check: problems and warnings kept apart, each tied to its state. */
export function documentCheckOf(text: string, result: ValidationResult): DocumentCheck {
  const warningStates = result.warnings.length > 0 ? statesNamedBy(text, result.warnings) : {};
  if (result.ok) return { ok: true, problems: [], warnings: result.warnings, machine: machineView(result.definition, [], null, null), problemStates: {}, problemTransitions: {}, warningStates };
  return { ok: false, problems: result.problems, warnings: result.warnings, machine: null, problemStates: statesNamedBy(text, result.problems), problemTransitions: transitionsNamedBy(result.problems), warningStates };
}

/** The transition a problem's path points into: state_machine.transitions[i] or any field of it. */
function transitionsNamedBy(problems: readonly DocumentProblem[]): Record<number, number> {
  const byProblem: Record<number, number> = {};
  problems.forEach((problem, index) => {
    const at = /state_machine\.transitions\[(\d+)\](\.|$)/.exec(problem.path);
    if (at) byProblem[index] = Number(at[1]);
  });
  return byProblem;
}

/**
 * The state a problem concerns: the one its path points at (state_machine.states[i]), the state
 * of the step it points into (steps[i]...), else the first declared state its message quotes.
 */
function statesNamedBy(text: string, problems: readonly DocumentProblem[]): Record<number, string> {
  const stepStates = stepStatesOf(text);
  const declared = /states:\s*\[([^\]]*)\]/.exec(text)?.[1]?.split(",").map((name) => name.trim().replace(/^["']|["']$/g, "")).filter(Boolean) ?? [];
  const byProblem: Record<number, string> = {};
  problems.forEach((problem, index) => {
    const at = /state_machine\.states\[(\d+)\]$/.exec(problem.path);
    const quoted = [...problem.message.matchAll(/"([^"]+)"/g)].map((match) => match[1]!).find((name) => declared.includes(name));
    const step = /(?:^|\.)steps\[(\d+)\]/.exec(problem.path);
    const named = at ? declared[Number(at[1])] : (quoted ?? (step ? stepStates[Number(step[1])] : undefined));
    if (named) byProblem[index] = named;
  });
  return byProblem;
}

/** Each step's in_state, by its place in the steps list; read leniently, since the document has problems. */
function stepStatesOf(text: string): (string | undefined)[] {
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    return [];
  }
  const root = value as { workflow?: { steps?: unknown }; steps?: unknown } | null;
  const steps = root?.workflow?.steps ?? root?.steps;
  return Array.isArray(steps) ? steps.map((step: unknown) => (typeof step === "object" && step !== null && typeof (step as { in_state?: unknown }).in_state === "string" ? (step as { in_state: string }).in_state : undefined)) : [];
}

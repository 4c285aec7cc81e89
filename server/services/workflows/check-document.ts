import { validateWorkflowDocument } from "@/server/workflows/definition";
import type { DocumentProblem } from "@/server/workflows/document";
import { machineView, type MachineView } from "../runs/machine-view";

export interface DocumentCheck {
  readonly ok: boolean;
  readonly problems: readonly DocumentProblem[];
  /** The machine the document describes, when it is valid (the editor's live preview). */
  readonly machine: MachineView | null;
  /** Which state each problem concerns, when its path names one (for marking nodes). */
  readonly problemStates: Readonly<Record<number, string>>;
}

/**
 * Validates a workflow document as `dualstate validate` does, for the editor: the problems with
 * their places, the states they concern, and the machine to draw when it is valid.
 */
export function checkWorkflowDocument(text: string): DocumentCheck {
  const result = validateWorkflowDocument(text, "workflow.yaml");
  if (result.ok) return { ok: true, problems: [], machine: machineView(result.definition, [], null, null), problemStates: {} };
  return { ok: false, problems: result.problems, machine: null, problemStates: statesNamedBy(text, result.problems) };
}

/**
 * The state a problem concerns: the one its path points at (state_machine.states[i]), else the
 * first declared state its message quotes.
 */
function statesNamedBy(text: string, problems: readonly DocumentProblem[]): Record<number, string> {
  const declared = /states:\s*\[([^\]]*)\]/.exec(text)?.[1]?.split(",").map((name) => name.trim().replace(/^["']|["']$/g, "")).filter(Boolean) ?? [];
  const byProblem: Record<number, string> = {};
  problems.forEach((problem, index) => {
    const at = /state_machine\.states\[(\d+)\]$/.exec(problem.path);
    const quoted = [...problem.message.matchAll(/"([^"]+)"/g)].map((match) => match[1]!).find((name) => declared.includes(name));
    const named = at ? declared[Number(at[1])] : quoted;
    if (named) byProblem[index] = named;
  });
  return byProblem;
}

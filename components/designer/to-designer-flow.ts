import { MarkerType, type Edge, type Node } from "@xyflow/react";
import { layoutGraph } from "@/components/graph/layout";
import { STATE_HEIGHT, STATE_WIDTH } from "@/components/state-machine/to-flow";
import { ANY_STATE, fallbackStep, placeOf, stepIn, type MachineOutline } from "./definition-ops";

export type Position = { readonly x: number; readonly y: number };
export type Selection = { readonly kind: "state"; readonly name: string } | { readonly kind: "transition"; readonly index: number } | null;

export type DesignerNodeData = {
  readonly name: string;
  readonly initial: boolean;
  readonly final: boolean;
  readonly problem: boolean;
  /** A warning concerns the state (and no problem does): marked amber. */
  readonly warning: boolean;
  /** "step · type" of the state's step, when it has one. */
  readonly summary: string | null;
};
export type DesignerFlowNode = Node<DesignerNodeData, "designer-state">;

/**
 * What the live check found: the states and the transitions (by index) its problems concern, and
 * the states its warnings concern (kept apart: a warning is not a problem).
 */
export interface ProblemMarks {
  readonly states: readonly string[];
  readonly transitions: readonly number[];
  readonly warnedStates: readonly string[];
}
export const NO_PROBLEMS: ProblemMarks = { states: [], transitions: [], warnedStates: [] };

export const transitionEdgeId = (index: number) => `t${index}`;
export const transitionIndexOf = (edgeId: string) => Number(edgeId.slice(1));

/**
 * The draft's machine as editable React Flow nodes and edges. Positions the user chose win; the
 * rest come from the dagre layout of the whole machine. "*" transitions start at an "any state"
 * node of their own and are drawn dashed. States and transitions a problem concerns are marked red; states only a warning concerns,
 * amber. Pure.
 */
export function toDesignerFlow(machine: MachineOutline, saved: Readonly<Record<string, Position>>, problems: ProblemMarks, selection: Selection): { nodes: DesignerFlowNode[]; edges: Edge[] } {
  // The "any state" node starts "*" transitions and holds the steps that run in any state.
  const hasWildcard = machine.transitions.some((transition) => transition.from === ANY_STATE) || fallbackStep(machine) !== undefined;
  const ids = [...machine.states, ...(hasWildcard ? [ANY_STATE] : [])];
  const layout = layoutGraph(
    ids.map((id) => ({ id })),
    machine.transitions.map((transition) => ({ source: transition.from, target: transition.to })),
    { width: STATE_WIDTH, height: STATE_HEIGHT, direction: "TB" },
  );
  const nodes = ids.map((id): DesignerFlowNode => {
    const step = stepIn(machine, id);
    const listed = step !== undefined && Array.isArray(step.in_state) && step.in_state.length > 1;
    return {
      id,
      type: "designer-state",
      position: saved[id] ?? layout.get(id) ?? { x: 0, y: 0 },
      selected: selection?.kind === "state" && selection.name === id,
      deletable: id !== ANY_STATE,
      data: {
        name: id === ANY_STATE ? "any state" : id,
        initial: machine.initial === id,
        final: machine.finals.includes(id),
        problem: problems.states.includes(id),
        warning: !problems.states.includes(id) && problems.warnedStates.includes(id),
        summary: step ? `${step.name} · ${typeof step.type === "string" ? step.type : "step"}${listed ? ` · in ${placeOf(step)}` : ""}` : null,
      },
    };
  });
  const edges = machine.transitions.map(({ index, ...transition }): Edge => {
    const wildcard = transition.from === ANY_STATE;
    const problem = problems.transitions.includes(index);
    const colour = problem ? "#dc2626" : "#64748b";
    return {
      id: transitionEdgeId(index),
      source: transition.from,
      target: transition.to,
      label: `${problem ? "⚠ " : ""}${transition.condition ?? "always"}`,
      selected: selection?.kind === "transition" && selection.index === index,
      className: `transition${wildcard ? " transition-wildcard" : ""}${problem ? " transition-problem" : ""}`,
      data: { problem },
      markerEnd: { type: MarkerType.ArrowClosed, color: colour },
      style: { stroke: colour, strokeWidth: problem ? 2.5 : 1.5, ...(wildcard ? { strokeDasharray: "6 4" } : {}) },
      ...(problem ? { labelStyle: { fill: "#b91c1c", fontWeight: 600 } } : {}),
    };
  });
  return { nodes, edges };
}

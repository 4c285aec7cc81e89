import { MarkerType, type Edge, type Node } from "@xyflow/react";
import { layoutGraph } from "@/components/graph/layout";
import { STATE_HEIGHT, STATE_WIDTH } from "@/components/state-machine/to-flow";
import { ANY_STATE } from "./definition-ops";
import type { Change, MachineDiff } from "./version-diff";

export type DiffNodeData = {
  readonly name: string;
  readonly change: Change;
  /** "initial, step" for a changed state; the step's name for an added or removed one. */
  readonly detail: string;
};
export type DiffFlowNode = Node<DiffNodeData, "diff-state">;

export const CHANGE_COLOURS: Record<Change, string> = { added: "#059669", removed: "#dc2626", changed: "#d97706", unchanged: "#94a3b8" };

/**
 * Both versions' machines drawn as one: every state and transition of either, coloured by what
 * happened to it (a changed condition reads "old → new"). Pure.
 */
export function toDiffFlow(diff: MachineDiff): { nodes: DiffFlowNode[]; edges: Edge[] } {
  const hasWildcard = diff.transitions.some((transition) => transition.from === ANY_STATE);
  const ids = [...diff.states.map((state) => state.name), ...(hasWildcard ? [ANY_STATE] : [])];
  const positions = layoutGraph(
    ids.map((id) => ({ id })),
    diff.transitions.map((transition) => ({ source: transition.from, target: transition.to })),
    { width: STATE_WIDTH, height: STATE_HEIGHT, direction: "TB" },
  );
  const nodes = diff.states.map((state): DiffFlowNode => {
    const steps = diff.steps.filter((step) => step.states.includes(state.name) && step.change !== "unchanged").map((step) => `${step.name} ${step.change}${step.fields.length > 0 ? ` (${step.fields.join(", ")})` : ""}`);
    return {
      id: state.name,
      type: "diff-state",
      position: positions.get(state.name) ?? { x: 0, y: 0 },
      data: { name: state.name, change: state.change, detail: [...state.reasons.filter((reason) => reason !== "step"), ...steps].join("; ") },
    };
  });
  if (hasWildcard) nodes.push({ id: ANY_STATE, type: "diff-state", position: positions.get(ANY_STATE) ?? { x: 0, y: 0 }, data: { name: "any state", change: "unchanged", detail: "" } });
  const edges = diff.transitions.map((transition): Edge => ({
    id: `diff:${transition.key}`,
    source: transition.from,
    target: transition.to,
    label: transition.change === "changed" ? `${transition.before} → ${transition.after}` : (transition.after ?? transition.before),
    className: `transition transition-${transition.change}`,
    data: { change: transition.change },
    markerEnd: { type: MarkerType.ArrowClosed, color: CHANGE_COLOURS[transition.change] },
    style: { stroke: CHANGE_COLOURS[transition.change], strokeWidth: transition.change === "unchanged" ? 1.5 : 2.5, ...(transition.change === "removed" ? { strokeDasharray: "4 4" } : {}) },
  }));
  return { nodes, edges };
}

import { MarkerType, type Edge, type Node } from "@xyflow/react";
import { layoutGraph } from "@/components/graph/layout";
import type { RouterOutputs } from "@/server/api/root";

type MachineView = NonNullable<RouterOutputs["run"]["get"]["machine"]>;

export const STATE_WIDTH = 200;
export const STATE_HEIGHT = 72;
/** The node standing for "any state" in `from: "*"` transitions. */
export const ANY_STATE = "*";

export type StateNodeData = {
  readonly name: string;
  readonly initial: boolean;
  readonly final: boolean;
  readonly current: boolean;
  readonly visited: boolean;
  /** A validation problem concerns this state (the editor's live check). */
  readonly problem?: boolean;
  readonly steps: MachineView["states"][number]["steps"];
};
export type StateFlowNode = Node<StateNodeData, "state">;

/**
 * The machine as React Flow nodes and edges, laid out top to bottom. The current state and the
 * states and transitions the run went through are marked; "*" transitions start at a node of
 * their own, drawn dashed. Pure.
 */
export function machineToFlow(machine: MachineView, problemStates: readonly string[] = []): { nodes: StateFlowNode[]; edges: Edge[] } {
  const visited = new Set(machine.path);
  const taken = new Set(machine.path.slice(1).map((to, index) => `${machine.path[index]}->${to}`));
  const hasWildcard = machine.transitions.some((transition) => transition.from === ANY_STATE);
  const ids = [...machine.states.map((state) => ({ id: state.name })), ...(hasWildcard ? [{ id: ANY_STATE }] : [])];
  const edgeList = machine.transitions.map((transition) => ({ source: transition.from, target: transition.to }));
  const positions = layoutGraph(ids, edgeList, { width: STATE_WIDTH, height: STATE_HEIGHT, direction: "TB" });
  const nodes: StateFlowNode[] = machine.states.map((state) => ({
    id: state.name,
    type: "state",
    position: positions.get(state.name) ?? { x: 0, y: 0 },
    data: { name: state.name, initial: state.initial, final: state.final, current: state.name === machine.current, visited: visited.has(state.name), problem: problemStates.includes(state.name), steps: state.steps },
  }));
  if (hasWildcard) nodes.push({ id: ANY_STATE, type: "state", position: positions.get(ANY_STATE) ?? { x: 0, y: 0 }, data: { name: "any state", initial: false, final: false, current: false, visited: false, steps: [] } });
  const edges = machine.transitions.map((transition, index): Edge => {
    const wasTaken = taken.has(`${transition.from}->${transition.to}`) || (transition.from === ANY_STATE && [...taken].some((pair) => pair.endsWith(`->${transition.to}`)));
    return {
      id: `t${index}`,
      source: transition.from,
      target: transition.to,
      label: transition.condition ?? undefined,
      className: `transition${wasTaken ? " transition-taken" : ""}${transition.from === ANY_STATE ? " transition-wildcard" : ""}`,
      markerEnd: { type: MarkerType.ArrowClosed },
      style: { stroke: wasTaken ? "#059669" : "#94a3b8", strokeWidth: wasTaken ? 2.5 : 1.5, ...(transition.from === ANY_STATE ? { strokeDasharray: "6 4" } : {}) },
    };
  });
  return { nodes, edges };
}

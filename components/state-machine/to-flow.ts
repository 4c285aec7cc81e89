import { MarkerType, type Edge, type Node } from "@xyflow/react";
import { layoutGraph } from "@/components/graph/layout";
import type { RouterOutputs } from "@/server/api/root";

type MachineView = NonNullable<RouterOutputs["run"]["get"]["machine"]>;

export const STATE_WIDTH = 200;
export const STATE_HEIGHT = 72;
/** The node standing for "any state" in `from: "*"` transitions. */
export const ANY_STATE = "*";

/** How a state stands in the run: where it is now, passed through, or not reached. */
export type StateProgress = "current" | "visited" | "unvisited";

/** Words for each progress, shown on the node and in the legend: colour is never the only sign. */
export const PROGRESS_LABEL: Record<StateProgress, string> = { current: "current", visited: "visited", unvisited: "not visited" };

export type StateNodeData = {
  readonly name: string;
  readonly initial: boolean;
  readonly final: boolean;
  readonly current: boolean;
  readonly visited: boolean;
  readonly progress: StateProgress;
  /** A run's machine marks progress; the editor's machine (no run) does not. */
  readonly showProgress: boolean;
  /** A validation problem concerns this state (the editor's live check). */
  readonly problem?: boolean;
  /** Only a validation warning concerns this state (the editor's live check): marked amber. */
  readonly warning?: boolean;
  readonly steps: MachineView["states"][number]["steps"];
};
export type StateFlowNode = Node<StateNodeData, "state">;

type MachineTransition = MachineView["transitions"][number];

/** The label of an edge: a transition's condition, a transition_map answer, or the step whose transition_to it is. */
function edgeLabel(transition: MachineTransition): string | undefined {
  if (transition.source === "transition_to") return `after ${transition.step ?? "the step"}`;
  return transition.condition ?? undefined;
}

const EDGE_DASH: Record<MachineTransition["source"], string | undefined> = { transition: undefined, transition_to: undefined, transition_map: "2 3" };

/**
 * The machine as React Flow nodes and edges, laid out top to bottom: every way it can move
 * (transitions, steps' transition_to, transition steps' transition_map answers), the current
 * state, the states and transitions the run went through. "*" transitions start at a node of
 * their own, drawn dashed. Pure.
 */
export function machineToFlow(machine: MachineView, problemStates: readonly string[] = [], options: { showProgress?: boolean; warnedStates?: readonly string[] } = {}): { nodes: StateFlowNode[]; edges: Edge[] } {
  // The editor's machine has no run: no state is current, and nothing is marked.
  const showProgress = options.showProgress ?? machine.current !== null;
  const visited = new Set(machine.path);
  const taken = new Set(machine.path.slice(1).map((to, index) => `${machine.path[index]}->${to}`));
  const hasWildcard = machine.transitions.some((transition) => transition.from === ANY_STATE);
  const ids = [...machine.states.map((state) => ({ id: state.name })), ...(hasWildcard ? [{ id: ANY_STATE }] : [])];
  const edgeList = machine.transitions.map((transition) => ({ source: transition.from, target: transition.to }));
  const positions = layoutGraph(ids, edgeList, { width: STATE_WIDTH, height: STATE_HEIGHT, direction: "TB" });
  const progressOf = (name: string): StateProgress => (name === machine.current ? "current" : visited.has(name) ? "visited" : "unvisited");
  const nodes: StateFlowNode[] = machine.states.map((state) => ({
    id: state.name,
    type: "state",
    position: positions.get(state.name) ?? { x: 0, y: 0 },
    data: {
      name: state.name,
      initial: state.initial,
      final: state.final,
      current: state.name === machine.current,
      visited: visited.has(state.name),
      progress: progressOf(state.name),
      showProgress,
      problem: problemStates.includes(state.name),
      warning: !problemStates.includes(state.name) && (options.warnedStates ?? []).includes(state.name),
      steps: state.steps,
    },
  }));
  if (hasWildcard) {
    nodes.push({
      id: ANY_STATE,
      type: "state",
      position: positions.get(ANY_STATE) ?? { x: 0, y: 0 },
      data: { name: "any state", initial: false, final: false, current: false, visited: false, progress: "unvisited", showProgress: false, steps: [] },
    });
  }
  const edges = machine.transitions.map((transition, index): Edge => {
    const wasTaken = taken.has(`${transition.from}->${transition.to}`) || (transition.from === ANY_STATE && [...taken].some((pair) => pair.endsWith(`->${transition.to}`)));
    const dash = transition.from === ANY_STATE ? "6 4" : EDGE_DASH[transition.source];
    return {
      id: `t${index}`,
      source: transition.from,
      target: transition.to,
      label: edgeLabel(transition),
      ariaLabel: `${transition.from === ANY_STATE ? "any state" : transition.from} to ${transition.to}${edgeLabel(transition) ? ` (${edgeLabel(transition)})` : ""}${wasTaken ? ", taken" : ""}`,
      className: `transition transition-${transition.source}${wasTaken ? " transition-taken" : ""}${transition.from === ANY_STATE ? " transition-wildcard" : ""}`,
      markerEnd: { type: MarkerType.ArrowClosed },
      style: { stroke: wasTaken ? "#059669" : "#94a3b8", strokeWidth: wasTaken ? 2.5 : 1.5, ...(dash ? { strokeDasharray: dash } : {}) },
    };
  });
  return { nodes, edges };
}

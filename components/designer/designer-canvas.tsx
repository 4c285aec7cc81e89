"use client";

import "@xyflow/react/dist/style.css";
import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from "react";
import { Background, Controls, ReactFlow, type Connection, type Dimensions, type Edge, type EdgeChange, type FitViewOptions, type NodeChange, type ReactFlowInstance } from "@xyflow/react";
import type { MachineOutline } from "./definition-ops";
import { DESIGNER_NODE_TYPES } from "./designer-node";
import { toDesignerFlow, transitionIndexOf, type DesignerFlowNode, type Position, type ProblemMarks, type Selection } from "./to-designer-flow";

const DELETE_KEYS = ["Delete", "Backspace"];
// A transition connects when dropped this close (in pixels at zoom 1) to a state's handle, or anywhere on the state.
const CONNECTION_RADIUS = 40;
// A drag that ends on the state it started from draws nothing (the inspector adds a transition to itself).
const leavesItsState = (connection: Connection | Edge) => connection.source !== connection.target;
// Never zoomed in past 1: a lone first state would otherwise fill the canvas, and the next one land outside it.
const FIT: FitViewOptions<DesignerFlowNode> = { maxZoom: 1, padding: 0.2 };

/**
 * The editable canvas. It owns no workflow data: nodes and edges are drawn from the outline, and
 * every gesture is reported (connect, delete, select, move) for the designer to turn into an edit.
 */
export function DesignerCanvas(props: {
  machine: MachineOutline;
  positions: Readonly<Record<string, Position>>;
  problems: ProblemMarks;
  selection: Selection;
  /** Takes updates, because one click reports the new selection and the old one's end in either order. */
  onSelect: Dispatch<SetStateAction<Selection>>;
  onMove: (moved: Record<string, Position>, done: boolean) => void;
  onConnect: (from: string, to: string) => void;
  onDelete: (states: string[], transitions: number[]) => void;
}) {
  const { machine, positions, problems, selection, onSelect, onMove, onConnect, onDelete } = props;
  // React Flow measures nodes; with controlled nodes the measurements must be handed back.
  const [measured, setMeasured] = useState<Record<string, Dimensions>>({});
  const flow = useMemo(() => toDesignerFlow(machine, positions, problems, selection), [machine, positions, problems, selection]);
  const nodes = useMemo(() => flow.nodes.map((node) => ({ ...node, measured: measured[node.id] })), [flow.nodes, measured]);
  // Every state stays in view when one is added or removed, and after Re-layout.
  const [instance, setInstance] = useState<ReactFlowInstance<DesignerFlowNode, Edge> | null>(null);
  const stateCount = machine.states.length;
  const automatic = Object.keys(positions).length === 0;
  useEffect(() => {
    if (instance) void instance.fitView(FIT);
  }, [instance, stateCount, automatic]);

  function handleNodesChange(changes: NodeChange<DesignerFlowNode>[]) {
    const sizes: Record<string, Dimensions> = {};
    const moved: Record<string, Position> = {};
    let dragEnded = false;
    for (const change of changes) {
      if (change.type === "dimensions" && change.dimensions) sizes[change.id] = change.dimensions;
      if (change.type === "position") {
        if (change.position) moved[change.id] = change.position;
        if (change.dragging === false) dragEnded = true;
      }
      if (change.type === "select" && change.selected) onSelect({ kind: "state", name: change.id });
      if (change.type === "select" && !change.selected) onSelect((current) => (current?.kind === "state" && current.name === change.id ? null : current));
    }
    if (Object.keys(sizes).length > 0) setMeasured((current) => ({ ...current, ...sizes }));
    if (Object.keys(moved).length > 0 || dragEnded) onMove(moved, dragEnded);
  }

  function handleEdgesChange(changes: EdgeChange[]) {
    for (const change of changes) {
      if (change.type !== "select") continue;
      const index = transitionIndexOf(change.id);
      if (change.selected) onSelect({ kind: "transition", index });
      else onSelect((current) => (current?.kind === "transition" && current.index === index ? null : current));
    }
  }

  return (
    <div className="h-[520px] rounded-lg border border-slate-200 bg-white" data-testid="state-machine">
      <ReactFlow<DesignerFlowNode, Edge>
        nodes={nodes}
        edges={flow.edges}
        nodeTypes={DESIGNER_NODE_TYPES}
        onNodesChange={handleNodesChange}
        onEdgesChange={handleEdgesChange}
        onConnect={(connection: Connection) => onConnect(connection.source, connection.target)}
        connectionRadius={CONNECTION_RADIUS}
        isValidConnection={leavesItsState}
        onDelete={({ nodes: deleted, edges }) => onDelete(deleted.map((node) => node.id), edges.map((edge) => transitionIndexOf(edge.id)))}
        deleteKeyCode={DELETE_KEYS}
        multiSelectionKeyCode={null}
        onInit={setInstance}
        fitView
        fitViewOptions={FIT}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

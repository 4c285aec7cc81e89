"use client";

import { memo } from "react";
import { Handle, Position, useConnection, type NodeProps } from "@xyflow/react";
import { STATE_HEIGHT, STATE_WIDTH } from "@/components/state-machine/to-flow";
import type { DesignerFlowNode } from "./to-designer-flow";

/**
 * A state on the designer canvas. Same test ids as the read-only graph's nodes, so a page can be
 * checked the same way whichever one it shows.
 */
export const DesignerNode = memo(function DesignerNode({ id, data, selected }: NodeProps<DesignerFlowNode>) {
  // While a transition is being drawn from another state, this whole state takes the drop.
  const dropTarget = useConnection((connection) => connection.inProgress && connection.fromNode.id !== id);
  const tone = data.problem ? "border-red-600 bg-red-50" : data.warning ? "border-amber-500 bg-amber-50" : "border-slate-300 bg-white";
  return (
    <div
      data-testid="state-node"
      data-state={data.name}
      data-problem={data.problem || undefined}
      data-warning={data.warning || undefined}
      style={{ width: STATE_WIDTH, height: STATE_HEIGHT }}
      className={`flex flex-col justify-center rounded-lg px-3 text-xs ${data.final ? "border-4 border-double" : "border-2"} ${tone} ${selected ? "ring-2 ring-sky-400" : ""}`}
    >
      <Handle type="target" position={Position.Top} className="!h-3.5 !w-3.5 !bg-slate-400" />
      {/* Listed after the top handle, so edges still end there; it only catches drops. */}
      <Handle
        type="target"
        id="drop"
        position={Position.Top}
        data-testid="state-drop-target"
        style={{ pointerEvents: dropTarget ? "all" : "none" }}
        className={`!absolute !inset-0 !h-full !w-full !translate-x-0 !translate-y-0 !transform-none !rounded-lg !border-0 ${dropTarget ? "!bg-sky-300/25" : "!bg-transparent"}`}
      />
      <span className="truncate font-semibold text-slate-900">
        {data.initial && <span aria-label="initial state">▶ </span>}
        {data.name}
        {data.final && <span className="ml-1 font-normal text-slate-500">(final)</span>}
      </span>
      {data.summary && <span className="truncate text-slate-600">{data.summary}</span>}
      <Handle type="source" position={Position.Bottom} className="!h-3.5 !w-3.5 !bg-slate-500" />
    </div>
  );
});

// Module scope, so React Flow does not see a new nodeTypes object on every render.
export const DESIGNER_NODE_TYPES = { "designer-state": DesignerNode };

"use client";

import { memo } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { STATE_HEIGHT, STATE_WIDTH } from "@/components/state-machine/to-flow";
import type { DiffFlowNode } from "./to-diff-flow";

const TONES = {
  added: "border-emerald-600 bg-emerald-50",
  removed: "border-red-600 bg-red-50 border-dashed",
  changed: "border-amber-500 bg-amber-50",
  unchanged: "border-slate-300 bg-white",
} as const;

/** A state in the version comparison, coloured by what happened to it between the two versions. */
export const DiffNode = memo(function DiffNode({ data }: NodeProps<DiffFlowNode>) {
  return (
    <div
      data-testid="diff-state"
      data-state={data.name}
      data-change={data.change}
      style={{ width: STATE_WIDTH, height: STATE_HEIGHT }}
      className={`flex flex-col justify-center rounded-lg border-2 px-3 text-xs ${TONES[data.change]}`}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className="!bg-slate-400" />
      <span className="truncate font-semibold text-slate-900">
        {data.name}
        {data.change !== "unchanged" && <span className="ml-1 font-normal text-slate-600">({data.change})</span>}
      </span>
      {data.detail && <span className="truncate text-slate-600" title={data.detail}>{data.detail}</span>}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="!bg-slate-400" />
    </div>
  );
});

// Module scope, so React Flow does not see a new nodeTypes object on every render.
export const DIFF_NODE_TYPES = { "diff-state": DiffNode };

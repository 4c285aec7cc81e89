"use client";

import { memo } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { STATE_HEIGHT, STATE_WIDTH, type StateFlowNode } from "./to-flow";

/** A state: its name, initial/final marks, and the step it runs (type, generator, guards). */
export const StateNode = memo(function StateNode({ data }: NodeProps<StateFlowNode>) {
  const tone = data.problem ? "border-red-600 bg-red-50" : data.current ? "border-sky-600 bg-sky-50 ring-2 ring-sky-300" : data.visited ? "border-emerald-600 bg-emerald-50" : "border-slate-300 bg-white";
  const step = data.steps[0];
  return (
    <div
      data-testid="state-node"
      data-state={data.name}
      data-current={data.current || undefined}
      data-visited={data.visited || undefined}
      data-problem={data.problem || undefined}
      style={{ width: STATE_WIDTH, height: STATE_HEIGHT }}
      className={`flex flex-col justify-center rounded-lg px-3 text-xs ${data.final ? "border-4 border-double" : "border-2"} ${tone}`}
    >
      <Handle type="target" position={Position.Top} className="!bg-slate-400" />
      <span className="truncate font-semibold text-slate-900">
        {data.initial && <span aria-label="initial state">▶ </span>}
        {data.name}
        {data.final && <span className="ml-1 font-normal text-slate-500">(final)</span>}
      </span>
      {step && (
        <span className="truncate text-slate-600" title={`${step.name}: ${step.type}${step.generator ? `, ${step.generator}` : ""}${step.guards.length ? `, guards ${step.guards.join(", ")}` : ""}`}>
          {step.name} · {step.type}
          {step.generator ? ` · ${step.generator}` : ""}
        </span>
      )}
      {step && step.guards.length > 0 && <span className="truncate text-slate-500">guards: {step.guards.join(", ")}</span>}
      <Handle type="source" position={Position.Bottom} className="!bg-slate-400" />
    </div>
  );
});

export const STATE_NODE_TYPES = { state: StateNode };

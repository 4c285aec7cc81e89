"use client";

import { memo } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { PROGRESS_LABEL, STATE_HEIGHT, STATE_WIDTH, type StateFlowNode, type StateProgress } from "./to-flow";

/** Current: strong sky border and ring; visited: emerald; not visited: grey and dashed. Each also says so in words. */
export const PROGRESS_TONE: Record<StateProgress, string> = {
  current: "border-sky-600 bg-sky-50 ring-4 ring-sky-300",
  visited: "border-emerald-600 bg-emerald-50",
  unvisited: "border-dashed border-slate-300 bg-white text-slate-500",
};

export const PROGRESS_MARK: Record<StateProgress, string> = { current: "●", visited: "✓", unvisited: "○" };

/** A state: its name, initial/final marks, where the run stands in it, and the step it runs (type, generator, guards). */
export const StateNode = memo(function StateNode({ data }: NodeProps<StateFlowNode>) {
  const tone = data.problem ? "border-red-600 bg-red-50" : data.warning ? "border-amber-500 bg-amber-50" : data.showProgress ? PROGRESS_TONE[data.progress] : "border-slate-300 bg-white";
  const step = data.steps[0];
  return (
    <div
      data-testid="state-node"
      data-state={data.name}
      data-current={data.current || undefined}
      data-visited={data.visited || undefined}
      data-progress={data.showProgress ? data.progress : undefined}
      data-problem={data.problem || undefined}
      data-warning={data.warning || undefined}
      aria-label={`State ${data.name}${data.initial ? ", initial" : ""}${data.final ? ", final" : ""}${data.showProgress ? `, ${PROGRESS_LABEL[data.progress]}` : ""}`}
      style={{ width: STATE_WIDTH, height: STATE_HEIGHT }}
      className={`flex flex-col justify-center rounded-lg px-3 text-xs ${data.final ? "border-4 border-double" : "border-2"} ${tone}`}
    >
      <Handle type="target" position={Position.Top} className="!bg-slate-400" />
      <span className="flex items-baseline gap-1 truncate font-semibold text-slate-900">
        {data.initial && <span aria-hidden="true">▶</span>}
        <span className="truncate">{data.name}</span>
        {data.final && <span className="font-normal text-slate-500">(final)</span>}
        {data.showProgress && (
          <span data-testid="state-progress" className="ml-auto shrink-0 font-normal text-slate-600" aria-hidden="true">
            {PROGRESS_MARK[data.progress]} {PROGRESS_LABEL[data.progress]}
          </span>
        )}
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

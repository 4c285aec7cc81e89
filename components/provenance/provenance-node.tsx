"use client";

import { memo } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { NODE_HEIGHT, NODE_WIDTH } from "@/components/graph/layout";

export type ProvenanceNodeData = {
  /** call: a tool call that waited (a person, a sub-run, another system); run: the parent or a sub-run. */
  readonly kind: "artifact" | "escalation" | "decision" | "call" | "run";
  /** For an artifact: the type of step that made it. */
  readonly stepKind?: string;
  readonly title: string;
  readonly subtitle: string;
  /** passed / failed / fatal for attempts; the escalation's status; the decision. */
  readonly tone: string;
};

export type ProvenanceFlowNode = Node<ProvenanceNodeData, "provenance">;

/** Handle ids, shared with the edges that attach to them. */
export const HANDLES = { chainIn: "chain-in", chainOut: "chain-out", dependencyIn: "dependency-in", dependencyOut: "dependency-out" } as const;

const TONES: Record<string, string> = {
  passed: "border-emerald-500 bg-emerald-50",
  failed: "border-amber-500 bg-amber-50",
  fatal: "border-red-600 bg-red-50",
  pending: "border-red-600 bg-white border-dashed",
  approved: "border-violet-600 bg-violet-50",
  rejected: "border-slate-700 bg-slate-100",
  expired: "border-slate-400 bg-slate-50",
  cancelled: "border-slate-400 bg-slate-50",
  // A waiting tool call, and one answered or timed out; a linked run by its status.
  waiting: "border-violet-500 bg-white border-dashed",
  reported: "border-emerald-500 bg-white",
  timed_out: "border-red-400 bg-white",
  run: "border-sky-600 bg-sky-50",
};

/** One attempt, escalation or decision; colour says the verdict. No callbacks in data (React Flow). */
export const ProvenanceNodeView = memo(function ProvenanceNodeView({ data, selected }: NodeProps<ProvenanceFlowNode>) {
  return (
    <div
      data-testid="provenance-node"
      data-kind={data.kind}
      data-step-kind={data.stepKind}
      data-tone={data.tone}
      style={{ width: NODE_WIDTH, height: NODE_HEIGHT }}
      className={`flex flex-col justify-center rounded-md border-2 px-3 text-xs ${TONES[data.tone] ?? "border-slate-300 bg-white"} ${selected ? "ring-2 ring-sky-500" : ""} ${data.kind === "artifact" ? "" : data.kind === "run" ? "border-double border-4" : "rounded-full"}`}
    >
      {/* Chains run down a column (top/bottom); dependencies cross between columns (left/right). */}
      <Handle id={HANDLES.chainIn} type="target" position={Position.Top} className="!bg-slate-400" />
      <Handle id={HANDLES.dependencyIn} type="target" position={Position.Left} className="!bg-slate-400" />
      <span className="truncate font-semibold text-slate-900">{data.title}</span>
      <span className="truncate text-slate-600">{data.subtitle}</span>
      <Handle id={HANDLES.dependencyOut} type="source" position={Position.Right} className="!bg-slate-400" />
      <Handle id={HANDLES.chainOut} type="source" position={Position.Bottom} className="!bg-slate-400" />
    </div>
  );
});

/** Module scope: a new object per render would make React Flow re-create every node (error002). */
export const PROVENANCE_NODE_TYPES = { provenance: ProvenanceNodeView };

"use client";

import "@xyflow/react/dist/style.css";
import { useMemo, useState } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Background, Controls, MiniMap, ReactFlow } from "@xyflow/react";
import { diffLines } from "diff";
import { useTRPC } from "@/components/providers/trpc-provider";
import { CodeBlock } from "@/components/runs/code-block";
import { PROVENANCE_NODE_TYPES, type ProvenanceFlowNode } from "./provenance-node";
import { STEP_KIND_LABELS, toFlow } from "./to-flow";

const MINIMAP_COLORS: Record<string, string> = { passed: "#10b981", failed: "#f59e0b", fatal: "#dc2626", pending: "#dc2626", approved: "#7c3aed", rejected: "#334155", waiting: "#8b5cf6", reported: "#10b981", timed_out: "#f87171", run: "#0284c7" };
const minimapColor = (node: ProvenanceFlowNode) => MINIMAP_COLORS[node.data.tone] ?? "#94a3b8";

/** Columns shown when the page opens: a large run opens readable at its start, not as specks. */
const OPENING_COLUMNS = 6;
const OPENING_ROWS = 8;

function openingView(nodes: readonly { id: string; position: { x: number; y: number } }[]): { id: string }[] {
  const xs = [...new Set(nodes.map((node) => node.position.x))].sort((a, b) => a - b).slice(0, OPENING_COLUMNS);
  const ys = [...new Set(nodes.map((node) => node.position.y))].sort((a, b) => a - b).slice(0, OPENING_ROWS);
  const lastX = xs.at(-1) ?? 0;
  const lastY = ys.at(-1) ?? 0;
  return nodes.filter((node) => node.position.x <= lastX && node.position.y <= lastY).map((node) => ({ id: node.id }));
}

/** The run's artifact DAG; selecting a node shows its content, feedback and diff with its parent. */
export function ProvenanceView({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const provenance = useQuery(trpc.run.provenance.queryOptions({ id: runId }));
  const [selected, setSelected] = useState<string | null>(null);
  const flow = useMemo(() => (provenance.data ? toFlow(provenance.data.graph, provenance.data.execution) : { nodes: [], edges: [] }), [provenance.data]);
  const fitViewOptions = useMemo(() => ({ nodes: openingView(flow.nodes), minZoom: 0.05 }), [flow.nodes]);

  if (provenance.error) return <p role="alert" className="text-sm text-red-700">{provenance.error.message}</p>;
  if (!provenance.data) return <p className="text-sm text-slate-500">Loading provenance…</p>;
  const { run, graph, artifacts, execution } = provenance.data;
  const node = graph.nodes.find((candidate) => candidate.id === selected);
  const executionNode = execution.nodes.find((candidate) => candidate.id === selected);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Provenance</h1>
          <p className="text-sm text-slate-600">
            <Link href={`/runs/${run.id}`} className="underline">
              Run {run.id.slice(0, 8)}
            </Link>{" "}
            of {run.workflow ?? "a deleted workflow"} v{run.version ?? "?"} · {graph.nodes.filter((n) => n.kind === "artifact").length} attempts · {run.status}
          </p>
        </div>
        <div className="flex gap-2">
          <a href={`/api/runs/${run.id}/provenance`} download className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
            Export PROV-JSON
          </a>
          <a href={`/api/runs/${run.id}/provenance/git`} download title="One commit per attempt; git clone the file to read it" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
            Export git bundle
          </a>
        </div>
      </div>
      <ul className="flex flex-wrap gap-4 text-xs text-slate-600" aria-label="Legend">
        <li>━ refinement (next attempt)</li>
        <li className="text-sky-700">┅ dependency a guard used</li>
        <li className="text-red-700">━ escalation</li>
        <li className="text-violet-700">━ human decision</li>
        {execution.nodes.length > 0 && (
          <>
            <li className="text-violet-700">┅ tool_call: a call that waited</li>
            <li className="text-emerald-700">━ report: its answer</li>
            <li className="text-sky-700">╌ join: parent and sub-runs</li>
          </>
        )}
      </ul>
      <div className="grid gap-4 lg:grid-cols-[1fr_24rem]">
        <div className="h-[560px] rounded-lg border border-slate-200 bg-white" data-testid="provenance-canvas">
          <ReactFlow
            nodes={flow.nodes}
            edges={flow.edges}
            nodeTypes={PROVENANCE_NODE_TYPES}
            nodesDraggable={false}
            nodesConnectable={false}
            onlyRenderVisibleElements
            fitView
            fitViewOptions={fitViewOptions}
            minZoom={0.05}
            onNodeClick={(_, clicked) => setSelected(clicked.id)}
            onPaneClick={() => setSelected(null)}
          >
            <Background />
            <Controls showInteractive={false} />
            <MiniMap pannable zoomable nodeColor={minimapColor} nodeStrokeWidth={0} />
          </ReactFlow>
        </div>
        <aside className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm" aria-label="Selected node" data-testid="provenance-details">
          {!node && !executionNode && <p className="text-slate-500">Select an attempt, escalation, decision, tool call or run.</p>}
          {executionNode?.kind === "call" && (
            <>
              <h2 className="font-semibold text-slate-900">
                Tool call {executionNode.tool} · {executionNode.toolKind}
              </h2>
              <p>
                {executionNode.step} · attempt {executionNode.attempt} · {executionNode.status.replace("_", " ")}
                {executionNode.reportedBy && ` by ${executionNode.reportedBy}`}
              </p>
              <p className="font-mono text-xs text-slate-500">call {executionNode.callId}</p>
              <Link href={`/runs/${run.id}#waiting-for`} className="inline-block text-sm underline">
                On the run page
              </Link>
            </>
          )}
          {executionNode?.kind === "run" && (
            <>
              <h2 className="font-semibold text-slate-900">{executionNode.relation === "parent" ? "Parent run" : "Sub-run"}</h2>
              <p>
                {executionNode.workflow ?? "unknown workflow"} · {executionNode.status ?? "?"}
              </p>
              <p className="flex gap-3">
                <Link href={`/runs/${executionNode.runId}`} className="underline">
                  Run {executionNode.runId.slice(0, 8)}
                </Link>
                <Link href={`/runs/${executionNode.runId}/provenance`} className="underline">
                  Its provenance
                </Link>
              </p>
            </>
          )}
          {node?.kind === "artifact" && (
            <>
              <h2 className="font-semibold text-slate-900">
                {node.step} · {STEP_KIND_LABELS[node.stepKind]} · attempt {node.attempt} · {node.verdict}
              </h2>
              {node.feedback && <p className="whitespace-pre-wrap text-slate-700">{node.feedback}</p>}
              <p className="font-mono text-xs text-slate-500">sha256 {node.contentHash.slice(0, 16)}…</p>
              <Link href={`/runs/${run.id}/provenance/${encodeURIComponent(node.artifactId)}`} className="inline-block text-sm underline">
                Ancestors and descendants
              </Link>
              <CodeBlock code={artifacts[node.artifactId]?.content ?? ""} language={artifacts[node.artifactId]?.language ?? null} />
              {artifacts[node.artifactId]?.parentId && <ParentDiff before={artifacts[artifacts[node.artifactId]!.parentId!]?.content ?? ""} after={artifacts[node.artifactId]?.content ?? ""} />}
            </>
          )}
          {node?.kind === "escalation" && (
            <>
              <h2 className="font-semibold text-slate-900">Escalation of {node.step}</h2>
              <p>Status: {node.status}</p>
              <p className="whitespace-pre-wrap text-slate-700">{node.feedback}</p>
            </>
          )}
          {node?.kind === "decision" && (
            <>
              <h2 className="font-semibold text-slate-900">Decision: {node.decision}</h2>
              <p>By {node.decidedBy}</p>
              {node.comment && <p className="whitespace-pre-wrap text-slate-700">{node.comment}</p>}
            </>
          )}
        </aside>
      </div>
    </div>
  );
}

function ParentDiff({ before, after }: { before: string; after: string }) {
  return (
    <div>
      <h3 className="mb-1 text-xs font-semibold uppercase text-slate-500">Diff with the previous attempt</h3>
      <pre className="overflow-x-auto rounded-md border border-slate-200 font-mono text-xs leading-5" data-testid="parent-diff">
        {diffLines(before, after).map((change, index) => (
          <span key={index} className={`block whitespace-pre ${change.added ? "bg-emerald-50 text-emerald-900" : change.removed ? "bg-red-50 text-red-900" : "text-slate-600"}`}>
            {change.value
              .replace(/\n$/, "")
              .split("\n")
              .map((line) => `${change.added ? "+" : change.removed ? "-" : " "} ${line}`)
              .join("\n")}
          </span>
        ))}
      </pre>
    </div>
  );
}

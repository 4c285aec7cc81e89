"use client";

import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Background, Controls, ReactFlow } from "@xyflow/react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { CodeBlock } from "@/components/runs/code-block";
import type { RouterOutputs } from "@/server/api/root";
import { artifactLineage } from "./artifact-lineage";
import { PROVENANCE_NODE_TYPES } from "./provenance-node";
import { toFlow } from "./to-flow";

type Graph = RouterOutputs["run"]["provenance"]["graph"];
type GraphNode = Graph["nodes"][number];
type GraphEdge = Graph["edges"][number];

const EDGE_WORDS: Record<GraphEdge["kind"], [incoming: string, outgoing: string]> = {
  refinement: ["refines", "refined by"],
  dependency: ["guard depended on", "depended on by"],
  escalation: ["escalated from", "escalated to"],
  decision: ["decided on", "decided by"],
};

const nodeTitle = (node: GraphNode | undefined) =>
  !node ? "?" : node.kind === "artifact" ? `${node.step} · attempt ${node.attempt} (${node.verdict})` : node.kind === "escalation" ? `escalation of ${node.step}` : `decision: ${node.decision}`;

/**
 * One artifact's lineage: its ancestors (the attempts it refined, the artifacts its guard used)
 * and descendants drawn as a graph with the artifact selected, and its edges listed in words,
 * each leading to the artifact at its other end.
 */
export function ArtifactProvenanceView({ runId, artifactId }: { runId: string; artifactId: string }) {
  const trpc = useTRPC();
  const provenance = useQuery(trpc.run.provenance.queryOptions({ id: runId }));
  const lineage = useMemo(() => (provenance.data ? artifactLineage(provenance.data.graph, artifactId) : null), [provenance.data, artifactId]);
  const flow = useMemo(() => {
    if (!lineage) return { nodes: [], edges: [] };
    const drawn = toFlow({ nodes: [...lineage.nodes], edges: [...lineage.edges] });
    return { nodes: drawn.nodes.map((node) => ({ ...node, selected: node.id === artifactId })), edges: drawn.edges };
  }, [lineage, artifactId]);

  if (provenance.error) return <p role="alert" className="text-sm text-red-700">{provenance.error.message}</p>;
  if (!provenance.data) return <p className="text-sm text-slate-500">Loading provenance…</p>;
  const { graph, artifacts } = provenance.data;
  const node = graph.nodes.find((candidate) => candidate.id === artifactId);
  if (!lineage || node?.kind !== "artifact") return <p role="alert" className="text-sm text-red-700">Run {runId} has no artifact {artifactId}.</p>;
  const byId = new Map(graph.nodes.map((entry) => [entry.id, entry]));

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{nodeTitle(node)}</h1>
        <p className="text-sm text-slate-600">
          <Link href={`/runs/${runId}/provenance`} className="underline">
            Whole run&apos;s provenance
          </Link>{" "}
          · {lineage.ancestors.length} ancestors · {lineage.descendants.length} descendants
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[1fr_24rem]">
        <div className="h-[480px] rounded-lg border border-slate-200 bg-white" data-testid="lineage-canvas">
          <ReactFlow nodes={flow.nodes} edges={flow.edges} nodeTypes={PROVENANCE_NODE_TYPES} nodesDraggable={false} nodesConnectable={false} fitView minZoom={0.05}>
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </div>
        <aside className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm" aria-label="Artifact">
          <LineageEdges runId={runId} nodes={byId} title="Came from" edges={lineage.incoming} end="source" />
          <LineageEdges runId={runId} nodes={byId} title="Led to" edges={lineage.outgoing} end="target" />
          {node.feedback && <p className="whitespace-pre-wrap text-slate-700">{node.feedback}</p>}
          <CodeBlock code={artifacts[node.artifactId]?.content ?? ""} language={artifacts[node.artifactId]?.language ?? null} />
        </aside>
      </div>
    </div>
  );
}

/** An artifact's edges at one end, in words, each linking to the artifact at the other end. */
function LineageEdges({ runId, nodes, title, edges, end }: { runId: string; nodes: ReadonlyMap<string, GraphNode>; title: string; edges: readonly GraphEdge[]; end: "source" | "target" }) {
  return (
    <section aria-label={title}>
      <h2 className="mb-1 text-xs font-semibold uppercase text-slate-500">{title}</h2>
      {edges.length === 0 ? (
        <p className="text-slate-500">Nothing.</p>
      ) : (
        <ul className="space-y-1" data-testid={end === "source" ? "lineage-incoming" : "lineage-outgoing"}>
          {edges.map((edge) => {
            const other = nodes.get(edge[end]);
            const words = EDGE_WORDS[edge.kind][end === "source" ? 0 : 1];
            return (
              <li key={edge.id} data-kind={edge.kind}>
                {words}
                {edge.label ? ` (${edge.label})` : ""}:{" "}
                {other?.kind === "artifact" ? (
                  <Link className="underline" href={`/runs/${runId}/provenance/${encodeURIComponent(other.id)}`}>
                    {nodeTitle(other)}
                  </Link>
                ) : (
                  nodeTitle(other)
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

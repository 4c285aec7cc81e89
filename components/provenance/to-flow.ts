import type { Edge } from "@xyflow/react";
import type { RouterOutputs } from "@/server/api/root";
import { NODE_HEIGHT, NODE_WIDTH } from "@/components/graph/layout";
import { layoutProvenance } from "./provenance-layout";
import { HANDLES, type ProvenanceFlowNode } from "./provenance-node";

type Graph = RouterOutputs["run"]["provenance"]["graph"];
type ArtifactNode = Extract<Graph["nodes"][number], { kind: "artifact" }>;

/** How each type of step is named on a node, and what its passed artifact is. */
export const STEP_KIND_LABELS: Record<ArtifactNode["stepKind"], string> = { action_pair: "action pair", llm: "llm", code: "code", transition: "transition" };
const OUTPUT_LABELS: Record<ArtifactNode["stepKind"], string> = { action_pair: "passed", llm: "answer", code: "variables set", transition: "decision" };

const EDGE_STYLES: Record<string, { stroke: string; strokeDasharray?: string }> = {
  refinement: { stroke: "#334155" },
  dependency: { stroke: "#0284c7", strokeDasharray: "6 4" },
  escalation: { stroke: "#dc2626" },
  decision: { stroke: "#7c3aed" },
};

// Known before React Flow measures a node: the minimap and the culling of off-screen nodes need a
// size for nodes that are never drawn.
const SIZE = { initialWidth: NODE_WIDTH, initialHeight: NODE_HEIGHT } as const;

/** The provenance graph as laid-out React Flow nodes and styled edges. Pure. */
export function toFlow(graph: Graph): { nodes: ProvenanceFlowNode[]; edges: Edge[] } {
  const positions = layoutProvenance(graph);
  const nodes = graph.nodes.map((node): ProvenanceFlowNode => {
    const position = positions.get(node.id) ?? { x: 0, y: 0 };
    switch (node.kind) {
      case "artifact":
        return {
          id: node.id,
          type: "provenance",
          position,
          ...SIZE,
          data: { kind: "artifact", stepKind: node.stepKind, title: `${node.step} · attempt ${node.attempt}`, subtitle: `${STEP_KIND_LABELS[node.stepKind]}: ${node.verdict === "passed" ? OUTPUT_LABELS[node.stepKind] : `${node.verdict}: ${node.feedback}`}`, tone: node.verdict },
        };
      case "escalation":
        return { id: node.id, type: "provenance", position, ...SIZE, data: { kind: "escalation", title: `Escalation · ${node.step}`, subtitle: node.status, tone: node.status === "pending" ? "pending" : "fatal" } };
      case "decision":
        return { id: node.id, type: "provenance", position, ...SIZE, data: { kind: "decision", title: `Decision: ${node.decision}`, subtitle: `by ${node.decidedBy}`, tone: node.decision } };
    }
  });
  const edges = graph.edges.map(
    (edge): Edge => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      ...(edge.kind === "dependency" ? { sourceHandle: HANDLES.dependencyOut, targetHandle: HANDLES.dependencyIn } : { sourceHandle: HANDLES.chainOut, targetHandle: HANDLES.chainIn }),
      label: edge.label,
      data: { kind: edge.kind },
      className: `provenance-edge-${edge.kind}`,
      style: EDGE_STYLES[edge.kind],
      animated: edge.kind === "dependency",
    }),
  );
  return { nodes, edges };
}

import type { Edge } from "@xyflow/react";
import type { RouterOutputs } from "@/server/api/root";
import { NODE_HEIGHT, NODE_WIDTH } from "@/components/graph/layout";
import { layoutProvenance } from "./provenance-layout";
import { HANDLES, type ProvenanceFlowNode } from "./provenance-node";

type Graph = RouterOutputs["run"]["provenance"]["graph"];
type Execution = RouterOutputs["run"]["provenance"]["execution"];
type ArtifactNode = Extract<Graph["nodes"][number], { kind: "artifact" }>;

/** How each type of step is named on a node, and what its passed artifact is. */
export const STEP_KIND_LABELS: Record<ArtifactNode["stepKind"], string> = { action_pair: "action pair", llm: "llm", code: "code", transition: "transition" };
const OUTPUT_LABELS: Record<ArtifactNode["stepKind"], string> = { action_pair: "passed", llm: "answer", code: "variables set", transition: "decision" };

const EDGE_STYLES: Record<string, { stroke: string; strokeDasharray?: string }> = {
  refinement: { stroke: "#334155" },
  dependency: { stroke: "#0284c7", strokeDasharray: "6 4" },
  escalation: { stroke: "#dc2626" },
  decision: { stroke: "#7c3aed" },
  tool_call: { stroke: "#7c3aed", strokeDasharray: "4 3" },
  report: { stroke: "#059669" },
  join: { stroke: "#0369a1", strokeDasharray: "10 4" },
};

/** Which handles each edge kind attaches to: chains run down a column, the rest cross sideways. */
const SIDEWAYS = new Set(["dependency", "report"]);

// Known before React Flow measures a node: the minimap and the culling of off-screen nodes need a
// size for nodes that are never drawn.
const SIZE = { initialWidth: NODE_WIDTH, initialHeight: NODE_HEIGHT } as const;

/**
 * The provenance graph as laid-out React Flow nodes and styled edges, with the run's execution
 * graph (tool calls below their attempts, the parent and sub-runs) drawn in it when given. Pure.
 */
export function toFlow(artifactGraph: Graph, execution?: Execution): { nodes: ProvenanceFlowNode[]; edges: Edge[] } {
  const graph = { nodes: [...artifactGraph.nodes, ...(execution?.nodes ?? [])], edges: [...artifactGraph.edges, ...(execution?.edges ?? [])] };
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
      case "call":
        return {
          id: node.id,
          type: "provenance",
          position,
          ...SIZE,
          data: {
            kind: "call",
            title: `${node.tool} · ${node.toolKind}`,
            subtitle: `${node.step} attempt ${node.attempt} · ${node.status.replace("_", " ")}${node.reportedBy ? ` by ${node.reportedBy}` : ""}`,
            tone: node.status,
          },
        };
      case "run":
        return {
          id: node.id,
          type: "provenance",
          position,
          ...SIZE,
          data: { kind: "run", title: `${node.relation === "parent" ? "Parent run" : "Sub-run"} ${node.runId.slice(0, 8)}`, subtitle: `${node.workflow ?? "run"} · ${node.status ?? "?"}`, tone: "run" },
        };
    }
  });
  const edges = graph.edges.map(
    (edge): Edge => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      ...(SIDEWAYS.has(edge.kind) ? { sourceHandle: HANDLES.dependencyOut, targetHandle: HANDLES.dependencyIn } : { sourceHandle: HANDLES.chainOut, targetHandle: HANDLES.chainIn }),
      label: edge.label,
      data: { kind: edge.kind },
      className: `provenance-edge-${edge.kind}`,
      style: EDGE_STYLES[edge.kind],
      animated: edge.kind === "dependency" || edge.kind === "tool_call",
    }),
  );
  return { nodes, edges };
}

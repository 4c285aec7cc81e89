import dagre from "@dagrejs/dagre";

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 64;

/** Left-to-right positions for a DAG (dagre); pure, so it is unit-tested without a browser. */
export function layoutGraph(nodes: readonly { id: string }[], edges: readonly { source: string; target: string }[]): Map<string, { x: number; y: number }> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "LR", nodesep: 24, ranksep: 60 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of edges) if (graph.hasNode(edge.source) && graph.hasNode(edge.target)) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  const positions = new Map<string, { x: number; y: number }>();
  for (const node of nodes) {
    const placed = graph.node(node.id);
    // dagre gives centres; React Flow wants top-left corners.
    positions.set(node.id, { x: placed.x - NODE_WIDTH / 2, y: placed.y - NODE_HEIGHT / 2 });
  }
  return positions;
}

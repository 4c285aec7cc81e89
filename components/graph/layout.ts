import dagre from "@dagrejs/dagre";

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 64;

export interface LayoutOptions {
  readonly width?: number;
  readonly height?: number;
  /** LR: left to right (default); TB: top to bottom. */
  readonly direction?: "LR" | "TB";
}

/** Positions (top-left corners) for a directed graph, by dagre; pure, so it is unit-tested without a browser. */
export function layoutGraph(nodes: readonly { id: string }[], edges: readonly { source: string; target: string }[], options: LayoutOptions = {}): Map<string, { x: number; y: number }> {
  const width = options.width ?? NODE_WIDTH;
  const height = options.height ?? NODE_HEIGHT;
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: options.direction ?? "LR", nodesep: 24, ranksep: 60 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, { width, height });
  edges.forEach((edge, index) => {
    if (graph.hasNode(edge.source) && graph.hasNode(edge.target)) graph.setEdge(edge.source, edge.target, {}, String(index));
  });
  dagre.layout(graph);
  const positions = new Map<string, { x: number; y: number }>();
  for (const node of nodes) {
    const placed = graph.node(node.id);
    // dagre gives centres; React Flow wants top-left corners.
    positions.set(node.id, { x: placed.x - width / 2, y: placed.y - height / 2 });
  }
  return positions;
}

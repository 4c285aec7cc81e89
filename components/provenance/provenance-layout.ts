import { NODE_HEIGHT, NODE_WIDTH } from "@/components/graph/layout";

/** The parts of the provenance graph the layout reads (the server's graph, or a test's). */
export interface LayoutInput {
  readonly nodes: readonly ({ id: string; kind: "artifact"; step: string } | { id: string; kind: "escalation" | "decision" | "call" | "run" })[];
  readonly edges: readonly { kind: string; source: string; target: string; phase?: string }[];
}

const COLUMN_GAP = 80;
const ROW_GAP = 24;

/**
 * Places a run's provenance in lanes: one column per attempt chain (a step's attempts, linked by
 * refinement, in the order the chains started), and down each column the attempts in order, each
 * followed by its escalation and the decision on it, and by the tool calls it waited for (each with
 * the sub-run it started). Linear in the graph's size: a general layered
 * layout (dagre) took seconds on a 1,000-artifact run, and the chains are what a reader follows.
 * Dependency edges run between columns. Nodes the lanes do not reach go in a last column. Pure.
 */
export function layoutProvenance(graph: LayoutInput): Map<string, { x: number; y: number }> {
  const kindOf = new Map(graph.nodes.map((node) => [node.id, node]));
  const refinedFrom = new Map<string, string>();
  const followers = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (edge.kind === "refinement") refinedFrom.set(edge.target, edge.source);
    // Joins in the request direction only: a sub-run's result points back at its call.
    else if (edge.kind === "escalation" || edge.kind === "decision" || edge.kind === "tool_call" || (edge.kind === "join" && edge.phase !== "response")) {
      followers.set(edge.source, [...(followers.get(edge.source) ?? []), edge.target]);
    }
  }
  const sameStep = (child: string, parent: string) => {
    const a = kindOf.get(child);
    const b = kindOf.get(parent);
    return a?.kind === "artifact" && b?.kind === "artifact" && a.step === b.step;
  };
  const chainOf = new Map<string, number>();
  const columns: string[][] = [];
  // A follower reached twice (two calls of one attempt joining one run) is placed once.
  const placed = new Set<string>();
  // Nodes arrive in time order, so a parent is placed before its child.
  for (const node of graph.nodes) {
    if (node.kind !== "artifact") continue;
    const parent = refinedFrom.get(node.id);
    const column = parent !== undefined && sameStep(node.id, parent) ? chainOf.get(parent) : undefined;
    const index = column ?? columns.push([]) - 1;
    chainOf.set(node.id, index);
    const lane = columns[index]!;
    lane.push(node.id);
    placed.add(node.id);
    // Its escalations and the decisions on them, its tool calls and their sub-runs, directly below it.
    for (let cursor = 0, queue = [...(followers.get(node.id) ?? [])]; cursor < queue.length; cursor++) {
      const follower = queue[cursor]!;
      if (placed.has(follower) || kindOf.get(follower)?.kind === "artifact") continue;
      placed.add(follower);
      lane.push(follower);
      queue.push(...(followers.get(follower) ?? []));
    }
  }
  const positions = new Map<string, { x: number; y: number }>();
  columns.forEach((lane, column) => lane.forEach((id, row) => positions.set(id, { x: column * (NODE_WIDTH + COLUMN_GAP), y: row * (NODE_HEIGHT + ROW_GAP) })));
  // The rest in a last column, each followed by its own followers (a call whose attempt has no
  // artifact yet, then the sub-run it started).
  const last: string[] = [];
  for (const node of graph.nodes) {
    for (let cursor = 0, queue = [node.id]; cursor < queue.length; cursor++) {
      const id = queue[cursor]!;
      if (positions.has(id) || placed.has(id)) continue;
      placed.add(id);
      last.push(id);
      queue.push(...(followers.get(id) ?? []));
    }
  }
  last.forEach((id, row) => positions.set(id, { x: columns.length * (NODE_WIDTH + COLUMN_GAP), y: row * (NODE_HEIGHT + ROW_GAP) }));
  return positions;
}

/**
 * One artifact's place in its run's provenance: everything it came from (the attempts it refined,
 * the artifacts its guard depended on, and theirs in turn) and everything that came from it, with
 * the edges between them. Pure, over the graph the provenance page already has.
 */
export interface LineageGraph<N extends { readonly id: string }, E extends { readonly source: string; readonly target: string; readonly kind: string }> {
  readonly nodes: readonly N[];
  readonly edges: readonly E[];
}

export interface Lineage<N, E> {
  readonly ancestors: readonly N[];
  readonly descendants: readonly N[];
  /** The subgraph: ancestors, the artifact, descendants, and every edge among them. */
  readonly nodes: readonly N[];
  readonly edges: readonly E[];
  /** Edges ending at the artifact: what it refined and what its guard depended on. */
  readonly incoming: readonly E[];
  /** Edges leaving it: refinements of it, artifacts that depended on it, its escalations. */
  readonly outgoing: readonly E[];
}

export function artifactLineage<N extends { readonly id: string }, E extends { readonly source: string; readonly target: string; readonly kind: string }>(graph: LineageGraph<N, E>, id: string): Lineage<N, E> | null {
  if (!graph.nodes.some((node) => node.id === id)) return null;
  const reach = (from: (edge: E) => string, to: (edge: E) => string) => {
    const seen = new Set<string>();
    const queue = [id];
    while (queue.length > 0) {
      const current = queue.shift()!;
      for (const edge of graph.edges) {
        if (from(edge) !== current || seen.has(to(edge)) || to(edge) === id) continue;
        seen.add(to(edge));
        queue.push(to(edge));
      }
    }
    return seen;
  };
  const up = reach((edge) => edge.target, (edge) => edge.source);
  const down = reach((edge) => edge.source, (edge) => edge.target);
  const kept = new Set([...up, id, ...down]);
  return {
    ancestors: graph.nodes.filter((node) => up.has(node.id)),
    descendants: graph.nodes.filter((node) => down.has(node.id)),
    nodes: graph.nodes.filter((node) => kept.has(node.id)),
    edges: graph.edges.filter((edge) => kept.has(edge.source) && kept.has(edge.target)),
    incoming: graph.edges.filter((edge) => edge.target === id),
    outgoing: graph.edges.filter((edge) => edge.source === id),
  };
}

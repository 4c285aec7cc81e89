import { describe, expect, it } from "vitest";
import { artifactLineage } from "./artifact-lineage";

// The TDD run: tests t1; implementation i1 fails against them, i2 refines it and passes; an
// unrelated step u1; i2's escalation e and its decision d.
const graph = {
  nodes: ["t1", "i1", "i2", "u1", "e", "d"].map((id) => ({ id })),
  edges: [
    { source: "t1", target: "i1", kind: "dependency" },
    { source: "t1", target: "i2", kind: "dependency" },
    { source: "i1", target: "i2", kind: "refinement" },
    { source: "i2", target: "e", kind: "escalation" },
    { source: "e", target: "d", kind: "decision" },
  ],
};
const ids = (nodes: readonly { id: string }[]) => nodes.map((node) => node.id);

describe("artifactLineage", () => {
  it("finds an artifact's ancestors through refinements and dependencies, and its descendants", () => {
    const lineage = artifactLineage(graph, "i2")!;
    expect(ids(lineage.ancestors)).toEqual(["t1", "i1"]);
    expect(ids(lineage.descendants)).toEqual(["e", "d"]);
    expect(ids(lineage.nodes)).toEqual(["t1", "i1", "i2", "e", "d"]);
    expect(lineage.incoming.map((edge) => `${edge.kind}:${edge.source}`)).toEqual(["dependency:t1", "refinement:i1"]);
    expect(lineage.outgoing.map((edge) => `${edge.kind}:${edge.target}`)).toEqual(["escalation:e"]);
  });

  it("from the tests: every implementation that depended on them is a descendant; unrelated steps are left out", () => {
    const lineage = artifactLineage(graph, "t1")!;
    expect(ids(lineage.ancestors)).toEqual([]);
    expect(ids(lineage.descendants)).toEqual(["i1", "i2", "e", "d"]);
    expect(lineage.edges).toHaveLength(5);
    expect(ids(lineage.nodes)).not.toContain("u1");
  });

  it("is null for an id the graph does not hold", () => {
    expect(artifactLineage(graph, "nope")).toBeNull();
  });
});

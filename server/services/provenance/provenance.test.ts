import { describe, expect, it } from "vitest";
import { layoutGraph } from "@/components/graph/layout";
import { buildProvenanceGraph, type ProvenanceArtifact, type ProvenanceEscalation } from "./provenance-graph";
import { toProvJson } from "./prov-json";

const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, second));
const artifact = (id: string, stepName: string, attempt: number, parentId: string | null, verdict: "passed" | "failed" | "fatal", second: number): ProvenanceArtifact => ({
  id,
  stepName,
  stepKind: "action_pair",
  guardId: stepName === "write_tests" ? "g_test" : "g_impl",
  attempt,
  parentId,
  passed: verdict === "passed",
  fatal: verdict === "fatal",
  feedback: verdict === "passed" ? "" : `attempt ${attempt} ${verdict}`,
  contentHash: id.repeat(8).slice(0, 64),
  createdAt: at(second),
});

// 000's TDD table: tests pass at once; the implementation fails once against them, then passes.
const tdd = {
  artifacts: [artifact("t1", "write_tests", 1, null, "passed", 1), artifact("i1", "implement", 1, null, "failed", 2), artifact("i2", "implement", 2, "i1", "passed", 3)],
  dependencies: [
    { artifactId: "i1", name: "test", dependencyId: "t1" },
    { artifactId: "i2", name: "test", dependencyId: "t1" },
  ],
  escalations: [] as ProvenanceEscalation[],
};

describe("provenance graph", () => {
  it("says which type of step made each artifact: an llm answer, a code step's variables, a transition's decision", () => {
    const kinds = ["llm", "code", "transition", "someday"].map((stepKind, index) => ({ ...artifact(`k${index}`, `step${index}`, 1, null, "passed", index), guardId: "", stepKind }));
    const graph = buildProvenanceGraph({ artifacts: kinds, dependencies: [], escalations: [] });
    // A kind this version does not know reads as an action pair, like rows stored before the column.
    expect(graph.nodes.map((node) => (node.kind === "artifact" ? node.stepKind : node.kind))).toEqual(["llm", "code", "transition", "action_pair"]);
  });

  it("chains a step's attempts by refinement and links the dependency a guard used", () => {
    const graph = buildProvenanceGraph(tdd);
    expect(graph.nodes.map((node) => (node.kind === "artifact" ? `${node.step}/${node.attempt}:${node.verdict}` : node.kind))).toEqual(["write_tests/1:passed", "implement/1:failed", "implement/2:passed"]);
    expect(graph.edges.map((edge) => `${edge.kind}:${edge.source}->${edge.target}${edge.label ? `(${edge.label})` : ""}`).sort()).toEqual([
      "dependency:t1->i1(test)",
      "dependency:t1->i2(test)",
      "refinement:i1->i2",
    ]);
  });

  it("gives escalations and decisions nodes of their own; a pending escalation has no decision yet", () => {
    const escalated = artifact("s1", "write_script", 1, null, "fatal", 1);
    const base = { id: "e1", artifactId: "s1", stepName: "write_script", feedback: "Security: os.system forbidden (line 3)", createdAt: at(2) };
    const pending = buildProvenanceGraph({ artifacts: [escalated], dependencies: [], escalations: [{ ...base, status: "pending", decidedBy: null, decidedAt: null, comment: null }] });
    expect(pending.nodes.map((node) => node.kind)).toEqual(["artifact", "escalation"]);
    const decided = buildProvenanceGraph({ artifacts: [escalated], dependencies: [], escalations: [{ ...base, status: "approved", decidedBy: "ada@example.com", decidedAt: at(3), comment: "safe here" }] });
    expect(decided.nodes.map((node) => node.kind)).toEqual(["artifact", "escalation", "decision"]);
    expect(decided.edges.map((edge) => `${edge.kind}:${edge.source}->${edge.target}`)).toEqual(["escalation:s1->escalation:e1", "decision:escalation:e1->decision:e1"]);
    expect(decided.nodes[2]).toMatchObject({ decision: "approved", decidedBy: "ada@example.com", comment: "safe here" });
  });

  it("lays the graph out left to right: every edge goes rightwards", () => {
    const graph = buildProvenanceGraph(tdd);
    const positions = layoutGraph(graph.nodes, graph.edges);
    for (const edge of graph.edges) expect(positions.get(edge.target)!.x).toBeGreaterThan(positions.get(edge.source)!.x);
  });
});

describe("PROV-JSON", () => {
  const doc = toProvJson({ id: "run-1", workflow: "tdd-lru-cache", version: 1, specification: "LRU cache" }, tdd);

  it("has an entity per artifact with its verdict, and the specification", () => {
    expect(Object.keys(doc.entity).sort()).toEqual(["run:artifact/i1", "run:artifact/i2", "run:artifact/t1", "run:specification"]);
    expect(doc.entity["run:artifact/i1"]).toMatchObject({ "prov:type": "dualstate:Artifact", "dualstate:verdict": "failed", "dualstate:feedback": "attempt 1 failed" });
  });

  it("says which type of step made each artifact, on the entity and its attempt", () => {
    expect(doc.entity["run:artifact/t1"]?.["dualstate:stepKind"]).toBe("action_pair");
    const mixed = toProvJson({ id: "run-2", workflow: null, version: null, specification: "s" }, { artifacts: [{ ...artifact("a1", "ask", 1, null, "passed", 1), stepKind: "llm" }], dependencies: [], escalations: [] });
    expect(mixed.entity["run:artifact/a1"]).toMatchObject({ "dualstate:step": "ask", "dualstate:stepKind": "llm" });
    expect(mixed.activity["run:attempt/ask/1"]).toMatchObject({ "dualstate:stepKind": "llm" });
  });

  it("relates them as PROV does: generated by attempts, derived by revision, dependencies used, agents associated", () => {
    const relations = (name: keyof typeof doc) => Object.values(doc[name] as Record<string, Record<string, unknown>>);
    expect(relations("wasGeneratedBy").map((r) => `${r["prov:entity"]}<-${r["prov:activity"]}`).sort()).toEqual([
      "run:artifact/i1<-run:attempt/implement/1",
      "run:artifact/i2<-run:attempt/implement/2",
      "run:artifact/t1<-run:attempt/write_tests/1",
    ]);
    expect(relations("wasDerivedFrom")).toEqual([{ "prov:generatedEntity": "run:artifact/i2", "prov:usedEntity": "run:artifact/i1", "prov:activity": "run:attempt/implement/2", "prov:type": "prov:Revision" }]);
    expect(relations("used").filter((r) => r["prov:role"] === "dualstate:dependency/test").map((r) => `${r["prov:activity"]} used ${r["prov:entity"]}`)).toEqual([
      "run:attempt/implement/1 used run:artifact/t1",
      "run:attempt/implement/2 used run:artifact/t1",
    ]);
    expect(Object.keys(doc.agent).sort()).toEqual(["run:generator/implement", "run:generator/write_tests", "run:guard/g_impl", "run:guard/g_test"]);
    // Every relation names ids the document defines (a valid PROV-JSON bundle).
    const defined = new Set([...Object.keys(doc.entity), ...Object.keys(doc.activity), ...Object.keys(doc.agent)]);
    for (const name of ["wasGeneratedBy", "used", "wasDerivedFrom", "wasAssociatedWith"] as const) {
      for (const relation of relations(name)) {
        for (const key of ["prov:entity", "prov:activity", "prov:agent", "prov:generatedEntity", "prov:usedEntity"]) {
          if (relation[key] !== undefined) expect(defined).toContain(relation[key]);
        }
      }
    }
  });
});

import { describe, expect, it } from "vitest";
import { layoutProvenance, type LayoutInput } from "./provenance-layout";

const artifact = (id: string, step: string) => ({ id, kind: "artifact" as const, step });

describe("layoutProvenance", () => {
  it("puts each attempt chain in a column of its own, attempts in order down it, escalation and decision below their artifact", () => {
    const graph: LayoutInput = {
      nodes: [
        artifact("t1", "tests"),
        artifact("i1", "impl"),
        artifact("i2", "impl"),
        { id: "escalation:e", kind: "escalation" },
        { id: "decision:e", kind: "decision" },
        artifact("i3", "impl"),
      ],
      edges: [
        { kind: "dependency", source: "t1", target: "i1" },
        { kind: "refinement", source: "i1", target: "i2" },
        { kind: "escalation", source: "i2", target: "escalation:e" },
        { kind: "decision", source: "escalation:e", target: "decision:e" },
        { kind: "refinement", source: "i2", target: "i3" },
      ],
    };
    const positions = layoutProvenance(graph);
    const at = (id: string) => positions.get(id)!;
    expect(at("t1").x).toBe(0);
    expect(new Set(["i1", "i2", "escalation:e", "decision:e", "i3"].map((id) => at(id).x))).toEqual(new Set([at("i1").x]));
    expect(at("i1").x).toBeGreaterThan(at("t1").x);
    const order = ["i1", "i2", "escalation:e", "decision:e", "i3"].map((id) => at(id).y);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(5);
  });

  it("starts a new column when a step runs again (a chain whose first attempt has no parent in its step)", () => {
    const positions = layoutProvenance({
      nodes: [artifact("a1", "loop"), artifact("b1", "other"), artifact("a2", "loop")],
      edges: [{ kind: "refinement", source: "b1", target: "a2" }],
    });
    expect(new Set([positions.get("a1")!.x, positions.get("b1")!.x, positions.get("a2")!.x]).size).toBe(3);
  });

  it("places every node, even one no chain reaches, and lays out 1,000 artifacts in linear time", () => {
    const stray = layoutProvenance({ nodes: [artifact("a", "s"), { id: "escalation:x", kind: "escalation" }], edges: [] });
    expect(stray.size).toBe(2);
    expect(stray.get("escalation:x")!.x).toBeGreaterThan(stray.get("a")!.x);

    const nodes = Array.from({ length: 1_000 }, (_, index) => artifact(`n${index}`, `step${Math.floor(index / 4)}`));
    const edges = nodes.flatMap((node, index) => (index % 4 === 0 ? [] : [{ kind: "refinement", source: `n${index - 1}`, target: node.id }]));
    const positions = layoutProvenance({ nodes, edges });
    expect(positions.size).toBe(1_000);
    expect(new Set([...positions.values()].map((p) => p.x)).size).toBe(250);
    expect(new Set([...positions.values()].map((p) => `${p.x},${p.y}`)).size).toBe(1_000);
  });

  it("puts an attempt's tool calls below it, each sub-run below its call, once, whatever joins point back", () => {
    const graph: LayoutInput = {
      nodes: [artifact("a1", "plan"), artifact("a2", "plan"), { id: "call:c1", kind: "call" }, { id: "call:c2", kind: "call" }, { id: "run:kid", kind: "run" }, { id: "run:mom", kind: "run" }],
      edges: [
        { kind: "refinement", source: "a1", target: "a2" },
        { kind: "tool_call", source: "a1", target: "call:c1" },
        { kind: "tool_call", source: "a1", target: "call:c2" },
        { kind: "join", phase: "request", source: "call:c1", target: "run:kid" },
        { kind: "join", phase: "request", source: "call:c2", target: "run:kid" },
        { kind: "join", phase: "response", source: "run:kid", target: "call:c1" },
        { kind: "report", source: "call:c1", target: "a1" },
        { kind: "join", phase: "request", source: "run:mom", target: "a1" },
      ],
    };
    const positions = layoutProvenance(graph);
    const at = (id: string) => positions.get(id)!;
    const column = ["a1", "call:c1", "call:c2", "run:kid", "a2"];
    expect(new Set(column.map((id) => at(id).x)).size).toBe(1);
    const ys = column.map((id) => at(id).y);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    expect(new Set(ys).size).toBe(column.length);
    // The parent run is not any attempt's follower: it stands in a column of its own.
    expect(at("run:mom").x).toBeGreaterThan(at("a1").x);
  });

  it("stacks the calls of an attempt not stored yet in a last column, each followed by its sub-run", () => {
    const graph: LayoutInput = {
      nodes: [artifact("a1", "plan"), { id: "call:c1", kind: "call" }, { id: "call:c2", kind: "call" }, { id: "call:c3", kind: "call" }, { id: "run:kid", kind: "run" }],
      edges: [
        { kind: "join", phase: "request", source: "call:c2", target: "run:kid" },
        { kind: "join", phase: "response", source: "run:kid", target: "call:c2" },
      ],
    };
    const positions = layoutProvenance(graph);
    const order = ["call:c1", "call:c2", "run:kid", "call:c3"];
    // One column right of the attempts, in this order from the top.
    expect(new Set(order.map((id) => positions.get(id)!.x)).size).toBe(1);
    expect(positions.get("call:c1")!.x).toBeGreaterThan(positions.get("a1")!.x);
    const ys = order.map((id) => positions.get(id)!.y);
    expect(ys).toEqual([...new Set(ys)].sort((a, b) => a - b));
  });
});

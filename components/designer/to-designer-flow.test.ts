import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { outline } from "./definition-ops";
import { NO_PROBLEMS, toDesignerFlow } from "./to-designer-flow";
import { parseDraft } from "./workflow-draft";

const tdd = readFileSync("examples/tdd-lru-cache.yaml", "utf8");

function machineOf(text: string) {
  const parsed = parseDraft(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return outline(parsed.draft);
}

describe("toDesignerFlow", () => {
  it("draws states, an any-state node for '*', labelled edges with the wildcard dashed, and the marks", () => {
    const flow = toDesignerFlow(machineOf(tdd), {}, { states: ["implementing"], transitions: [], warnedStates: [] }, { kind: "transition", index: 2 });
    expect(flow.nodes.map((node) => [node.id, node.data.initial, node.data.final, node.data.problem])).toEqual([
      ["writing_tests", true, false, false],
      ["implementing", false, false, true],
      ["done", false, true, false],
      ["*", false, false, false],
    ]);
    expect(flow.nodes.find((node) => node.id === "*")).toMatchObject({ deletable: false, data: { name: "any state" } });
    expect(flow.edges.map((edge) => [edge.id, edge.label, edge.selected])).toEqual([
      ["t0", "g_test", false],
      ["t1", "g_impl", false],
      ["t2", "should_restart", true],
    ]);
    expect(flow.edges[2]?.style).toMatchObject({ strokeDasharray: "6 4" });
  });

  it("marks the transitions a problem concerns: red, with a warning sign on the label", () => {
    const flow = toDesignerFlow(machineOf(tdd), {}, { states: [], transitions: [1], warnedStates: [] }, null);
    expect(flow.edges.map((edge) => [edge.id, edge.label, edge.className])).toEqual([
      ["t0", "g_test", "transition"],
      ["t1", "⚠ g_impl", "transition transition-problem"],
      ["t2", "should_restart", "transition transition-wildcard"],
    ]);
    expect(flow.edges[1]?.style).toMatchObject({ stroke: "#dc2626" });
  });

  it("marks the states a warning concerns as warned, apart from problems; a state with both is a problem", () => {
    const flow = toDesignerFlow(machineOf(tdd), {}, { states: ["implementing"], transitions: [], warnedStates: ["writing_tests", "implementing"] }, null);
    expect(flow.nodes.map((node) => [node.id, node.data.problem, node.data.warning])).toEqual([
      ["writing_tests", false, true],
      ["implementing", true, false],
      ["done", false, false],
      ["*", false, false],
    ]);
  });

  it("keeps the positions the user chose and lays out the rest", () => {
    const flow = toDesignerFlow(machineOf(tdd), { done: { x: 900, y: 5 } }, NO_PROBLEMS, null);
    expect(flow.nodes.find((node) => node.id === "done")?.position).toEqual({ x: 900, y: 5 });
    expect(flow.nodes.find((node) => node.id === "writing_tests")?.position).not.toEqual({ x: 0, y: 0 });
  });

  it("numbers edges by their place in the document, skipping entries that are not transitions", () => {
    const machine = machineOf("name: w\nstate_machine:\n  states: [a, b]\n  transitions: [ 7, { from: a, to: b } ]\nsteps: []\n");
    expect(toDesignerFlow(machine, {}, NO_PROBLEMS, null).edges.map((edge) => [edge.id, edge.label])).toEqual([["t1", "always"]]);
  });
});

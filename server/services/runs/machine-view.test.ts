import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { machineToFlow } from "@/components/state-machine/to-flow";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { machineView } from "./machine-view";

function example(name: string) {
  const result = validateWorkflowDocument(readFileSync(join(import.meta.dirname, "..", "..", "..", "examples", `${name}.yaml`), "utf8"), `${name}.yaml`);
  if (!result.ok) throw new Error("example invalid");
  return result.definition;
}

describe("machine view", () => {
  it("follows the TDD run from its initial state through each started step to where it ended", () => {
    const view = machineView(example("tdd-lru-cache"), ["write_tests", "implement", "implement"], "done", "done");
    expect(view.path).toEqual(["writing_tests", "implementing", "done"]);
    expect(view.states.map((state) => `${state.name}${state.initial ? "^" : ""}${state.final ? "$" : ""}:${state.steps.map((step) => `${step.name}/${step.type}/${step.guards.join("+")}`).join(",")}`)).toEqual([
      "writing_tests^:write_tests/action_pair/syntax",
      "implementing:implement/action_pair/syntax+security+tdd",
      "done$:",
    ]);
  });

  it("a run that has not started yet is at its initial state", () => {
    expect(machineView(example("tdd-lru-cache"), [], null, null).path).toEqual(["writing_tests"]);
  });

  it("maps to React Flow: current and visited states marked, taken transitions marked, '*' transitions from a node of their own", () => {
    const view = machineView(example("agent-loop"), ["observe", "ideate"], null, "ideating");
    const flow = machineToFlow(view);
    const byId = new Map(flow.nodes.map((node) => [node.id, node.data]));
    expect(byId.get("ideating")).toMatchObject({ current: true, visited: true });
    expect(byId.get("observing")).toMatchObject({ current: false, visited: true, initial: true });
    expect(byId.get("shipping")).toMatchObject({ visited: false, final: true });
    const taken = flow.edges.filter((edge) => edge.className?.includes("transition-taken")).map((edge) => `${edge.source}->${edge.target}`);
    expect(taken).toEqual(["observing->ideating"]);
    if (view.transitions.some((transition) => transition.from === "*")) {
      expect(byId.has("*")).toBe(true);
      expect(flow.edges.filter((edge) => edge.source === "*").every((edge) => edge.className?.includes("transition-wildcard"))).toBe(true);
    }
  });
});

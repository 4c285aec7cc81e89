import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { machineToFlow } from "@/components/state-machine/to-flow";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { machineView, type StartedStep } from "./machine-view";

/** step.started facts of a ledger written before steps named their state. */
const legacy = (steps: readonly string[]): StartedStep[] => steps.map((step) => ({ step, state: null }));

function example(name: string) {
  const result = validateWorkflowDocument(readFileSync(join(import.meta.dirname, "..", "..", "..", "examples", `${name}.yaml`), "utf8"), `${name}.yaml`);
  if (!result.ok) throw new Error("example invalid");
  return result.definition;
}

describe("machine view", () => {
  it("follows the TDD run from its initial state through each started step to where it ended", () => {
    const view = machineView(example("tdd-lru-cache"), legacy(["write_tests", "implement", "implement"]), "done", "done");
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
    const view = machineView(example("agent-loop"), legacy(["observe", "ideate"]), null, "ideating");
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

  it("draws every way the machine can move: transitions, a step's transition_to and each transition_map answer, so a final state reached only by an answer is connected", () => {
    const view = machineView(example("agent-loop"), [], null, null);
    const edges = view.transitions.map((edge) => `${edge.from}->${edge.to} [${edge.source}${edge.step ? ` ${edge.step}` : ""}] ${edge.condition ?? ""}`.trim());
    expect(edges).toEqual([
      "observing->ideating [transition] has_context",
      "implementing->testing [transition] g_impl",
      "testing->reflecting [transition] g_test",
      "*->observing [transition] should_pivot and attempts < 3",
      "ideating->implementing [transition_to ideate]",
      'reflecting->implementing [transition_map reflect] answer "continue"',
      'reflecting->observing [transition_map reflect] answer "pivot"',
      'reflecting->shipping [transition_map reflect] answer "ship"',
    ]);
    const flow = machineToFlow(view);
    expect(flow.edges.filter((edge) => edge.target === "shipping").map((edge) => [edge.source, edge.label, edge.className])).toEqual([["reflecting", 'answer "ship"', "transition transition-transition_map"]]);
    expect(flow.edges.find((edge) => edge.source === "ideating")?.label).toBe("after ideate");
  });

  it("a finished agent-loop run: every state visited, shipping current, the answer edge to it taken", () => {
    const view = machineView(example("agent-loop"), legacy(["observe", "ideate", "implement", "test", "reflect"]), "shipping", null);
    expect(view.current).toBe("shipping");
    const flow = machineToFlow(view);
    expect(flow.nodes.filter((node) => node.id !== "*").map((node) => `${node.id}:${node.data.progress}`)).toEqual([
      "observing:visited",
      "ideating:visited",
      "implementing:visited",
      "testing:visited",
      "reflecting:visited",
      "shipping:current",
    ]);
    expect(flow.edges.filter((edge) => edge.className?.includes("transition-taken")).map((edge) => `${edge.source}->${edge.target}`)).toContain("reflecting->shipping");
  });

  it("while a run goes on, the state of its last started step is current; a run that has not started marks nothing", () => {
    const running = machineView(example("tdd-lru-cache"), legacy(["write_tests", "implement"]), null, null);
    expect(running.current).toBe("implementing");
    const flow = machineToFlow(running);
    const states = flow.nodes.filter((node) => node.id !== "*");
    expect(Object.fromEntries(states.map((node) => [node.id, node.data.progress]))).toEqual({ writing_tests: "visited", implementing: "current", done: "unvisited" });
    expect(states.every((node) => node.data.showProgress)).toBe(true);

    const queued = machineToFlow(machineView(example("tdd-lru-cache"), [], null, null));
    expect(queued.nodes.some((node) => node.data.showProgress)).toBe(false);
  });

  it("gives an action pair's retry budget as attempts", () => {
    const view = machineView(example("prime-validator"), [], null, null);
    expect(view.states.flatMap((state) => state.steps.map((step) => [step.name, step.maxAttempts]))).toEqual([["implement", 3]]);
  });

  describe("the path from the state each turn ran in", () => {
    // "check" runs in two states and "fallback" in any: only the recorded state says where they ran.
    const definition: WorkflowDefinition = {
      name: "listed",
      language: "python",
      default_on_failure: "fail",
      default_max_retries: 0,
      context: {},
      components: [],
      state_machine: { states: ["a", "b", "c", "done"], initial_state: "a", final_states: ["done"], transitions: [] },
      steps: [
        { name: "check", type: "llm", in_state: ["a", "b"], max_retries: 0, on_failure: "fail" },
        { name: "fallback", type: "code", in_state: "*", code: "x = 1", max_retries: 0, on_failure: "fail" },
      ],
    };

    it("follows steps in lists of states and '*' steps through the states they ran in, loops included", () => {
      const started = [
        { step: "check", state: "a" },
        { step: "check", state: "b" },
        { step: "check", state: "b" },
        { step: "fallback", state: "c" },
      ];
      const view = machineView(definition, started, "done", null);
      expect(view.path).toEqual(["a", "b", "b", "c", "done"]);
      expect(view.current).toBe("done");
    });

    it("a first turn in a state other than the initial one (the initial state has no step) adds it", () => {
      expect(machineView(definition, [{ step: "fallback", state: "b" }], null, null).path).toEqual(["a", "b"]);
    });

    it("without recorded states, a step in several states cannot place itself", () => {
      expect(machineView(definition, legacy(["check", "fallback"]), null, null).path).toEqual(["a"]);
    });
  });
});

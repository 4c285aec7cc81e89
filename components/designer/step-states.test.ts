import { describe, expect, it } from "vitest";
import { deleteState, fallbackStep, outline, renameState, setStepStates, stepIn, stepOf } from "./definition-ops";
import { diffMachines } from "./version-diff";
import { toDesignerFlow, NO_PROBLEMS } from "./to-designer-flow";
import { parseDraft, type WorkflowDraft } from "./workflow-draft";

// 004's shapes: a step in a list of states, a step in any state ("*"), and one without in_state.
const TEXT = `name: places
state_machine:
  states: [observing, reflecting, shipping]
  initial_state: observing
  final_states: [shipping]
  transitions:
    - { from: observing, to: reflecting }
steps:
  - { name: look, type: llm, in_state: [observing, reflecting], prompt: Look }
  - { name: metrics, type: code, code: "x = 1" }
  - { name: later, type: llm, in_state: "*", prompt: Later }
`;

function draftOf(text: string): WorkflowDraft {
  const parsed = parseDraft(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.draft;
}

describe("steps in lists of states and in any state", () => {
  it("are kept by the outline: a list step is each of its states' step, the '*' node's step is the first without a state", () => {
    const machine = outline(draftOf(TEXT));
    expect(machine.steps.map((step) => step.name)).toEqual(["look", "metrics", "later"]);
    expect(stepIn(machine, "observing")?.name).toBe("look");
    expect(stepIn(machine, "reflecting")?.name).toBe("look");
    expect(stepIn(machine, "shipping")).toBeUndefined();
    expect(fallbackStep(machine)?.name).toBe("metrics");
    expect(stepIn(machine, "*")?.name).toBe("metrics");
  });

  it("draws an 'any state' node holding the fallback step, and says where a list step runs", () => {
    const { nodes } = toDesignerFlow(outline(draftOf(TEXT)), {}, NO_PROBLEMS, null);
    const summaries = Object.fromEntries(nodes.map((node) => [node.id, node.data.summary]));
    expect(summaries).toEqual({ observing: "look · llm · in observing, reflecting", reflecting: "look · llm · in observing, reflecting", shipping: null, "*": "metrics · code" });
  });

  it("setStepStates writes one state, several in the machine's order, or '*'; an empty list or unknown state is refused", () => {
    let draft = draftOf(TEXT);
    draft = setStepStates(draft, "metrics", ["shipping", "observing"]);
    expect(stepOf(draft, "shipping")?.in_state).toEqual(["observing", "shipping"]);
    draft = setStepStates(draft, "metrics", ["reflecting"]);
    expect(outline(draft).steps.find((step) => step.name === "metrics")?.in_state).toBe("reflecting");
    draft = setStepStates(draft, "look", "*");
    expect(outline(draft).steps.find((step) => step.name === "look")?.in_state).toBe("*");
    expect(() => setStepStates(draft, "look", [])).toThrow(/needs at least one state/);
    expect(() => setStepStates(draft, "look", ["nowhere"])).toThrow(/state "nowhere" does not exist/);
  });

  it("renaming a state renames it inside lists; deleting one removes it from lists and drops a step left with none", () => {
    const renamed = renameState(draftOf(TEXT), "reflecting", "thinking");
    expect(stepOf(renamed, "thinking")?.in_state).toEqual(["observing", "thinking"]);
    const once = deleteState(draftOf(TEXT), "reflecting");
    expect(stepOf(once, "observing")?.in_state).toEqual(["observing"]);
    const twice = deleteState(once, "observing");
    expect(outline(twice).steps.map((step) => step.name)).toEqual(["metrics", "later"]);
  });

  it("a version diff places a list step in each of its states", () => {
    const before = outline(draftOf(TEXT));
    const after = outline(setStepStates(draftOf(TEXT), "look", ["reflecting", "shipping"]));
    const diff = diffMachines(before, after);
    expect(diff.steps.find((step) => step.name === "look")).toMatchObject({ state: "reflecting, shipping", states: ["reflecting", "shipping"], movedFrom: "observing, reflecting" });
    expect(diff.states.filter((state) => state.change !== "unchanged").map((state) => state.name).sort()).toEqual(["observing", "reflecting", "shipping"]);
  });
});

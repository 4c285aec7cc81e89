import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addState, addTransition, deleteState, outline, setTransitionCondition, toggleFinal, updateStep } from "./definition-ops";
import { diffMachines, diffText } from "./version-diff";
import { parseDraft, serializeDraft, type WorkflowDraft } from "./workflow-draft";

function draftOf(text: string): WorkflowDraft {
  const parsed = parseDraft(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.draft;
}

const tdd = draftOf(readFileSync("examples/tdd-lru-cache.yaml", "utf8"));
const changesOf = <T extends { change: string }>(entries: readonly T[], name: (entry: T) => string) =>
  Object.fromEntries(entries.filter((entry) => entry.change !== "unchanged").map((entry) => [name(entry), entry.change]));

describe("diffMachines", () => {
  it("finds nothing between a version and itself", () => {
    const diff = diffMachines(outline(tdd), outline(tdd));
    expect([...diff.states, ...diff.transitions, ...diff.steps].every((entry) => entry.change === "unchanged")).toBe(true);
    expect(diff.states.map((state) => state.name)).toEqual(["writing_tests", "implementing", "done"]);
  });

  it("names the states, transitions and steps added, removed and changed", () => {
    let after = addState(tdd, "reviewing").draft;
    after = addTransition(after, "implementing", "reviewing", "g_impl");
    after = setTransitionCondition(after, 0, "tests_written");
    after = deleteState(after, "done");
    after = toggleFinal(after, "reviewing");
    after = updateStep(after, "implement", { max_retries: 5 });
    const diff = diffMachines(outline(tdd), outline(after));

    expect(changesOf(diff.states, (state) => state.name)).toEqual({ reviewing: "added", done: "removed", implementing: "changed" });
    expect(diff.states.find((state) => state.name === "implementing")?.reasons).toEqual(["step"]);
    expect(changesOf(diff.transitions, (transition) => transition.key)).toEqual({
      "writing_tests→implementing": "changed",
      "implementing→done": "removed",
      "implementing→reviewing": "added",
    });
    expect(diff.transitions.find((transition) => transition.key === "writing_tests→implementing")).toMatchObject({ before: "g_test", after: "tests_written" });
    expect(diff.steps.find((step) => step.name === "implement")).toMatchObject({ change: "changed", fields: ["max_retries"] });
  });

  it("marks a state whose initial or final flag changed, and both states a step moved between", () => {
    const after = updateStep(toggleFinal(tdd, "implementing"), "write_tests", { name: "write_tests" });
    const moved = draftOf(serializeDraft(after).replace("in_state: writing_tests", "in_state: done"));
    const diff = diffMachines(outline(tdd), outline(moved));
    expect(diff.states.find((state) => state.name === "implementing")).toMatchObject({ change: "changed", reasons: ["final"] });
    expect(diff.steps.find((step) => step.name === "write_tests")).toMatchObject({ change: "changed", fields: ["in_state"], movedFrom: "writing_tests", state: "done" });
    expect(changesOf(diff.states, (state) => state.name)).toMatchObject({ writing_tests: "changed", done: "changed" });
  });

  it("tells a second transition between the same states from the first", () => {
    const after = addTransition(tdd, "writing_tests", "implementing", "forced");
    const diff = diffMachines(outline(tdd), outline(after));
    expect(changesOf(diff.transitions, (transition) => transition.key)).toEqual({ "writing_tests→implementing #2": "added" });
  });
});

describe("diffText", () => {
  it("numbers removed lines by the older text and added lines by the newer one", () => {
    expect(diffText("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual([
      { kind: "same", text: "a", line: 1 },
      { kind: "removed", text: "b", line: 2 },
      { kind: "added", text: "B", line: 2 },
      { kind: "same", text: "c", line: 3 },
      { kind: "added", text: "d", line: 4 },
    ]);
  });
});

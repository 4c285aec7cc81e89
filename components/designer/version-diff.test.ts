import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addState, addTransition, deleteState, outline, setTransitionCondition, toggleFinal, updateStep } from "./definition-ops";
import { addComponent, renameVariable, setComponentText, setDefaultMaxRetries, setLanguage, setText } from "./settings-ops";
import { diffMachines, diffText, diffWorkflowFields } from "./version-diff";
import { parseDraft, serializeDraft, workflowOf, type WorkflowDraft } from "./workflow-draft";

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

describe("diffWorkflowFields", () => {
  const workflow = (draft: WorkflowDraft) => workflowOf(draft);

  it("finds nothing between a version and itself, and ignores the machine's own parts", () => {
    expect(diffWorkflowFields(workflow(tdd), workflow(tdd))).toEqual([]);
    expect(diffWorkflowFields(workflow(tdd), workflow(addState(tdd, "reviewing").draft))).toEqual([]);
  });

  it("names a changed language, where diffMachines sees the same machine", () => {
    const after = setLanguage(tdd, "typescript");
    const machine = diffMachines(outline(tdd), outline(after));
    expect([...machine.states, ...machine.transitions, ...machine.steps].every((entry) => entry.change === "unchanged")).toBe(true);
    expect(diffWorkflowFields(workflow(tdd), workflow(after))).toEqual([{ field: "language", change: "changed", before: '"python"', after: '"typescript"' }]);
  });

  it("names texts added, removed and changed, cutting long ones", () => {
    let after = setText(tdd, "constraints", "");
    after = setText(after, "description", "x".repeat(200));
    after = setDefaultMaxRetries(after, 7);
    const changes = diffWorkflowFields(workflow(tdd), workflow(after));
    expect(changes).toContainEqual({ field: "constraints", change: "removed", before: '"Python 3.11, standard library only"' });
    expect(changes).toContainEqual({ field: "default_max_retries", change: "changed", before: "3", after: "7" });
    const description = changes.find((change) => change.field === "description");
    expect(description?.after).toHaveLength(60);
    expect(description?.after?.endsWith("…")).toBe(true);
  });

  it("names each context variable and component by its name", () => {
    let after = renameVariable(tdd, "should_restart", "restart");
    after = setComponentText(after, 0, "Prefer pure functions.");
    after = addComponent(after);
    expect(diffWorkflowFields(workflow(tdd), workflow(after))).toEqual([
      { field: "context.should_restart", change: "removed", before: "false" },
      { field: "context.restart", change: "added", after: "false" },
      { field: "components.style", change: "changed" },
      { field: "components.component_1", change: "added" },
    ]);
  });

  it("names a renamed workflow", () => {
    const renamed = structuredClone(tdd);
    workflowOf(renamed).name = "lru";
    expect(diffWorkflowFields(workflow(tdd), workflow(renamed))).toEqual([{ field: "name", change: "changed", before: '"tdd-lru-cache"', after: '"lru"' }]);
  });
});

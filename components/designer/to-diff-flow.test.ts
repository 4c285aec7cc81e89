import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addState, addTransition, deleteState, outline, setTransitionCondition, updateStep } from "./definition-ops";
import { CHANGE_COLOURS, toDiffFlow } from "./to-diff-flow";
import { diffMachines } from "./version-diff";
import { parseDraft } from "./workflow-draft";

const parsed = parseDraft(readFileSync("examples/tdd-lru-cache.yaml", "utf8"));
if (!parsed.ok) throw new Error(parsed.error);
const tdd = parsed.draft;

describe("toDiffFlow", () => {
  it("draws every state and transition of both versions, coloured by change, a changed condition as old → new", () => {
    let after = addTransition(addState(tdd, "reviewing").draft, "implementing", "reviewing", "g_impl");
    after = setTransitionCondition(deleteState(after, "done"), 0, "tests_written");
    after = updateStep(after, "implement", { max_retries: 5 });
    const flow = toDiffFlow(diffMachines(outline(tdd), outline(after)));

    expect(flow.nodes.map((node) => [node.id, node.data.change, node.data.detail])).toEqual([
      ["writing_tests", "unchanged", ""],
      ["implementing", "changed", "implement changed (max_retries)"],
      ["done", "removed", ""],
      ["reviewing", "added", ""],
      ["*", "unchanged", ""],
    ]);
    expect(flow.edges.map((edge) => [edge.source, edge.target, edge.label, edge.className])).toEqual([
      ["writing_tests", "implementing", "g_test → tests_written", "transition transition-changed"],
      ["implementing", "done", "g_impl", "transition transition-removed"],
      ["*", "writing_tests", "should_restart", "transition transition-unchanged"],
      ["implementing", "reviewing", "g_impl", "transition transition-added"],
    ]);
    expect(flow.edges[1]?.style).toMatchObject({ stroke: CHANGE_COLOURS.removed, strokeDasharray: "4 4" });
  });
});

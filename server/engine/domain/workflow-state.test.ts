import { describe, expect, it } from "vitest";
import { artifactIdFor, initialWorkflowState, isGoalState, isSatisfied, satisfy } from "./workflow-state";

describe("WorkflowState", () => {
  it("starts with every guard unsatisfied and frozen", () => {
    expect(initialWorkflowState).toEqual({ guards: {}, artifactIds: {} });
    expect(Object.isFrozen(initialWorkflowState)).toBe(true);
    expect(Object.isFrozen(initialWorkflowState.guards)).toBe(true);
    expect(Object.isFrozen(initialWorkflowState.artifactIds)).toBe(true);
    expect(isSatisfied(initialWorkflowState, "g_1")).toBe(false);
    expect(artifactIdFor(initialWorkflowState, "g_1")).toBeUndefined();
  });

  it("satisfy returns a new frozen state and leaves the old one untouched", () => {
    const before = satisfy(initialWorkflowState, "g_test", "a-1");
    const snapshot = structuredClone(before);
    const after = satisfy(before, "g_impl", "a-2");

    expect(after).not.toBe(before);
    expect(after.guards).not.toBe(before.guards);
    expect(after.artifactIds).not.toBe(before.artifactIds);
    expect(Object.isFrozen(after)).toBe(true);
    expect(Object.isFrozen(after.guards)).toBe(true);
    expect(Object.isFrozen(after.artifactIds)).toBe(true);

    expect(before).toEqual(snapshot);
    expect(initialWorkflowState).toEqual({ guards: {}, artifactIds: {} });
    expect(after).toEqual({ guards: { g_test: true, g_impl: true }, artifactIds: { g_test: "a-1", g_impl: "a-2" } });
  });

  it("frozen state cannot be changed in place", () => {
    const state = satisfy(initialWorkflowState, "g_1", "a-1");
    expect(() => {
      (state.guards as Record<string, boolean>).g_2 = true;
    }).toThrow(TypeError);
    expect(() => {
      (state as { guards: unknown }).guards = {};
    }).toThrow(TypeError);
  });

  it("isSatisfied and artifactIdFor read the satisfied guard and its artifact", () => {
    const state = satisfy(initialWorkflowState, "g_1", "a-1");
    expect(isSatisfied(state, "g_1")).toBe(true);
    expect(isSatisfied(state, "g_2")).toBe(false);
    expect(artifactIdFor(state, "g_1")).toBe("a-1");
  });

  it("re-satisfying a guard records the newer artifact", () => {
    const state = satisfy(satisfy(initialWorkflowState, "g_1", "a-1"), "g_1", "a-9");
    expect(artifactIdFor(state, "g_1")).toBe("a-9");
  });

  it("isGoalState holds only when every goal guard is satisfied", () => {
    const one = satisfy(initialWorkflowState, "g_test", "a-1");
    const both = satisfy(one, "g_impl", "a-2");
    expect(isGoalState(initialWorkflowState, ["g_test"])).toBe(false);
    expect(isGoalState(one, ["g_test", "g_impl"])).toBe(false);
    expect(isGoalState(one, ["g_test"])).toBe(true);
    expect(isGoalState(both, ["g_test", "g_impl"])).toBe(true);
    // An empty goal set is trivially reached.
    expect(isGoalState(initialWorkflowState, [])).toBe(true);
  });

  it("does not treat inherited object keys as satisfied guards", () => {
    expect(isSatisfied(initialWorkflowState, "toString")).toBe(false);
    expect(isSatisfied(initialWorkflowState, "constructor")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { composeContext, refineContext } from "./context";

const ambient = Object.freeze({ repository: new InMemoryArtifactDag(), constraints: "No network." });

describe("composeContext", () => {
  it("starts a frozen context with no current artifact and no history", () => {
    const context = composeContext(ambient, "Implement LRU Cache");
    expect(context).toEqual({ ambient, specification: "Implement LRU Cache", currentArtifact: null, feedbackHistory: [] });
    expect(context.ambient).toBe(ambient);
    expect(Object.isFrozen(context)).toBe(true);
    expect(Object.isFrozen(context.feedbackHistory)).toBe(true);
  });
});

describe("refineContext (Definition 5)", () => {
  it("grows the history, sets the current artifact, and leaves the original untouched", () => {
    const original = composeContext(ambient, "spec");
    const first = refineContext(original, "attempt one", "feedback one");
    const second = refineContext(first, "attempt two", "feedback two");

    expect(original.currentArtifact).toBeNull();
    expect(original.feedbackHistory).toEqual([]);
    expect(first.currentArtifact).toBe("attempt one");
    expect(first.feedbackHistory).toEqual([{ artifact: "attempt one", feedback: "feedback one" }]);
    expect(second.currentArtifact).toBe("attempt two");
    expect(second.feedbackHistory).toEqual([
      { artifact: "attempt one", feedback: "feedback one" },
      { artifact: "attempt two", feedback: "feedback two" },
    ]);

    expect(second).not.toBe(first);
    expect(second.feedbackHistory).not.toBe(first.feedbackHistory);
    // The ambient environment and specification are shared, not copied or changed.
    expect(second.ambient).toBe(ambient);
    expect(second.specification).toBe("spec");
  });

  it("returns frozen values all the way down", () => {
    const refined = refineContext(composeContext(ambient, "spec"), "a", "f");
    expect(Object.isFrozen(refined)).toBe(true);
    expect(Object.isFrozen(refined.feedbackHistory)).toBe(true);
    expect(Object.isFrozen(refined.feedbackHistory[0])).toBe(true);
    expect(() => (refined.feedbackHistory as unknown as unknown[]).push({ artifact: "x", feedback: "y" })).toThrow(TypeError);
  });

  it("branching from one context gives independent histories", () => {
    const base = refineContext(composeContext(ambient, "spec"), "a", "f");
    const left = refineContext(base, "left", "L");
    const right = refineContext(base, "right", "R");
    expect(base.feedbackHistory).toHaveLength(1);
    expect(left.feedbackHistory.map((entry) => entry.feedback)).toEqual(["f", "L"]);
    expect(right.feedbackHistory.map((entry) => entry.feedback)).toEqual(["f", "R"]);
  });
});

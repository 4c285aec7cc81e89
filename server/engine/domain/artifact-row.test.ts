import { describe, expect, it } from "vitest";
import { createArtifact } from "./artifact";
import { artifactRowOf } from "./artifact-row";
import { failed, passed } from "./guard-result";
import { DEFAULT_STEP_KIND, storedStepKind } from "./step-kind";

describe("artifactRowOf", () => {
  const artifact = createArtifact({ id: "a-2", content: "def f():\n    return 1\n", version: 2, parentId: "a-1" });

  it("spells out every column, the attempt number from the artifact's version", () => {
    const row = artifactRowOf({ artifact, stepName: "implement", stepKind: "llm", guardId: "g_impl", result: failed("too short"), dependencyIds: { test: "t-1" }, language: "python" });
    expect(row).toEqual({
      id: "a-2",
      stepName: "implement",
      stepKind: "llm",
      guardId: "g_impl",
      attempt: 2,
      parentId: "a-1",
      content: artifact.content,
      contentHash: artifact.contentHash,
      language: "python",
      passed: false,
      fatal: false,
      feedback: "too short",
      dependencyIds: { test: "t-1" },
    });
  });

  it("stores an entry without a step kind or language as an action pair with no language", () => {
    const row = artifactRowOf({ artifact, stepName: "implement", guardId: "g_impl", result: passed(), dependencyIds: {} });
    expect(row.stepKind).toBe(DEFAULT_STEP_KIND);
    expect(row.stepKind).toBe("action_pair");
    expect(row.language).toBeNull();
  });

  it("reads a stored step kind back, and the default for a column that holds none or something else", () => {
    expect(storedStepKind("code")).toBe("code");
    expect(storedStepKind(null)).toBe("action_pair");
    expect(storedStepKind("Code")).toBe("action_pair");
    expect(storedStepKind(7)).toBe("action_pair");
  });
});

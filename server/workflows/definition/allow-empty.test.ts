import { describe, expect, it } from "vitest";
import { formatProblem } from "../document";
import { validateWorkflowDocument } from "./validate-definition";

function workflow(step: Record<string, unknown>) {
  return JSON.stringify({
    workflow: {
      name: "w",
      language: "javascript",
      state_machine: { states: ["start", "done"], initial_state: "start", final_states: ["done"], transitions: [{ from: "start", to: "done" }] },
      steps: [{ name: "write", in_state: "start", prompt: "Write it", ...step }],
    },
  });
}

const actionPair = { type: "action_pair", guard_id: "g_out", guards: [{ kind: "syntax" }] };

describe("the step option allow_empty", () => {
  it("is accepted on an action pair and kept; absent, it stays absent (empty is refused)", () => {
    for (const value of [true, false]) {
      const result = validateWorkflowDocument(workflow({ ...actionPair, allow_empty: value }));
      if (!result.ok) expect.fail(result.problems.map(formatProblem).join("\n"));
      expect(result.definition.steps[0]?.allow_empty).toBe(value);
    }
    const plain = validateWorkflowDocument(workflow(actionPair));
    if (!plain.ok) expect.fail("a plain action pair is valid");
    expect(plain.definition.steps[0]).not.toHaveProperty("allow_empty");
  });

  it("must be a boolean", () => {
    const result = validateWorkflowDocument(workflow({ ...actionPair, allow_empty: "yes" }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map(formatProblem).join("\n")).toMatch(/steps\[0\]\.allow_empty \(line \d+, column \d+\): must be a boolean/);
  });

  it("belongs to action pairs only", () => {
    const result = validateWorkflowDocument(workflow({ allow_empty: true }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map(formatProblem).join("\n")).toContain("a llm step cannot have allow_empty (only action_pair steps)");
  });
});

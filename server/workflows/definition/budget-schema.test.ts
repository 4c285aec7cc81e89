import { describe, expect, it } from "vitest";
import { validateWorkflowDocument } from "./validate-definition";

const document = (budget: string) => `workflow:
  name: budgeted
  specification: add two numbers
  budget: ${budget}
  state_machine: { states: [writing, done], initial_state: writing, final_states: [done], transitions: [{ from: writing, to: done, condition: g_add }] }
  steps:
    - { name: write_add, type: action_pair, in_state: writing, guard_id: g_add, generator: { kind: llm }, prompt: "{specification}", guards: [{ kind: syntax }] }
`;

describe("a workflow's budget", () => {
  it("is kept in the definition as written", () => {
    const result = validateWorkflowDocument(document("{ tokens: 20000, usd: 0.5, on_exceed: fail }"));
    expect(result.ok && result.definition.budget).toEqual({ tokens: 20000, usd: 0.5, on_exceed: "fail" });
  });

  it("names the field and the line of each mistake", () => {
    const result = validateWorkflowDocument(document("{ tokens: 1.5, usd: -1, on_exceed: shrug, per_step: 3 }"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problems = result.problems.map((problem) => `${problem.path}${problem.line === undefined ? "" : ` (line ${problem.line})`}: ${problem.message}`);
    expect(problems).toEqual([
      "workflow.budget.tokens (line 4): must be a whole number",
      "workflow.budget.usd (line 4): must be above 0",
      'workflow.budget.on_exceed (line 4): "shrug": must be one of escalate, fail',
      "workflow.budget.per_step (line 4): unknown key",
    ]);
  });

  it("needs a limit", () => {
    const result = validateWorkflowDocument(document("{ on_exceed: escalate }"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((problem) => `${problem.path}: ${problem.message}`)).toContain("workflow.budget: needs tokens, usd or both");
  });
});

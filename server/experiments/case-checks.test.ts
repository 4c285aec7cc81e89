import { describe, expect, it } from "vitest";
import { validateWorkflowDocument, type WorkflowDefinition } from "../workflows/definition";
import { checkedSteps, definitionForRun, readCaseChecks, withCaseChecks } from "./case-checks";

function definition(goal?: string): WorkflowDefinition {
  const validated = validateWorkflowDocument(
    `
name: two-steps
language: python
state_machine:
  states: [tests, code, done]
  initial_state: tests
  final_states: [done]
  transitions:
    - { from: tests, to: code, condition: g_tests }
    - { from: code, to: done, condition: g_code }
steps:
  - { name: write_tests, in_state: tests, guard_id: g_tests, prompt: "tests", guards: [{ kind: syntax }] }
  - { name: implement, in_state: code, guard_id: g_code, prompt: "code", guards: [{ kind: syntax }] }
${goal ? `goal: [${goal}]` : ""}
`,
    "two-steps.yaml",
  );
  if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
  return validated.definition;
}

describe("a case's checks join the workflow's guards", () => {
  it("on the last action pair without a goal, on the goal's steps with one", () => {
    expect(checkedSteps(definition())).toEqual(["implement"]);
    expect(checkedSteps(definition("g_tests"))).toEqual(["write_tests"]);
  });

  it("tests become a test guard and a rubric a judge, after the step's own guards; other steps are untouched", () => {
    const checked = withCaseChecks(definition(), { tests: { language: "python", code: "def test_x():\n    assert x() == 1\n" }, rubric: "Uses no imports" });
    expect(checked.steps[1]!.guards).toEqual([
      { kind: "syntax" },
      { kind: "test", test: "def test_x():\n    assert x() == 1\n", language: "python" },
      { kind: "llm_judge", rubric: "Uses no imports" },
    ]);
    expect(checked.steps[0]!.guards).toEqual([{ kind: "syntax" }]);
    expect(withCaseChecks(definition(), {})).toEqual(definition());
  });

  it("a run without a case entry executes the stored definition as it is", () => {
    const stored = definition();
    expect(definitionForRun(stored, undefined)).toBe(stored);
  });

  it("reads stored checks strictly, naming the field", () => {
    expect(readCaseChecks(null)).toEqual({ ok: true, checks: {} });
    expect(readCaseChecks({ tests: { language: "ruby", code: "x" } })).toEqual({ ok: false, problem: 'checks.tests.language: must be "python" or "javascript"' });
    expect(readCaseChecks({ rubric: "" })).toEqual({ ok: false, problem: "checks.rubric: must be non-empty text" });
    expect(readCaseChecks({ rubric: "x".repeat(10_001) })).toMatchObject({ ok: false, problem: expect.stringMatching(/^checks.rubric: longer than 10000/) });
    expect(() => definitionForRun(definition(), { checks: { tests: "oops" } })).toThrow(/experiment.case ledger entry is malformed: checks.tests/);
  });
});

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { RELIES_ON_A_DEFAULT } from "@/server/workflows/fixtures/relies-on-a-default";
import { checkWorkflowDocument, documentCheckOf } from "./check-document";

const tdd = readFileSync(join(import.meta.dirname, "..", "..", "..", "examples", "tdd-lru-cache.yaml"), "utf8");

describe("the editor's live check", () => {
  it("a valid document gives its machine to draw and no problems", () => {
    const check = checkWorkflowDocument(tdd);
    expect(check.ok).toBe(true);
    expect(check.machine?.states.map((state) => state.name)).toEqual(["writing_tests", "implementing", "done"]);
  });

  it("ties each problem to the state it concerns, with its line and column", () => {
    const check = checkWorkflowDocument(tdd.replace(/\n\s*- \{ from: implementing, to: done[^\n]*/, ""));
    expect(check.ok).toBe(false);
    expect(check.machine).toBeNull();
    expect(check.problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`)).toEqual([
      '19:14 state "writing_tests" has no path to a final state (done)',
      '19:29 state "implementing" has no path to a final state (done)',
    ]);
    expect(Object.values(check.problemStates)).toEqual(["writing_tests", "implementing"]);
    // A state that can never be entered never runs: a warning, tied to its state like a problem.
    expect(check.warnings.map((warning) => `${warning.line}:${warning.column} ${warning.message}`)).toEqual(['19:43 state "done" is unreachable from the initial state "writing_tests"']);
    expect(Object.values(check.warningStates)).toEqual(["done"]);
  });

  it("ties a problem in a transition to that transition, and to no state", () => {
    const check = checkWorkflowDocument(tdd.replace("{ from: implementing, to: done, condition: g_impl }", "{ from: implementing, to: done, condition: g_impl and }"));
    expect(check.problems.map((problem) => problem.path)).toEqual(["workflow.state_machine.transitions[1].condition"]);
    expect(check.problemTransitions).toEqual({ 0: 1 });
    expect(check.problemStates).toEqual({});
  });

  it("ties a problem in a step to the state the step runs in", () => {
    const check = checkWorkflowDocument(tdd.replace("guard_artifact_deps: [g_test]", "guard_artifact_deps: [g_tests]"));
    // The dependency is unknown, the tdd guard has no dependency named test, and the prompt's {test}
    // now names no dependency either: all three are the implement step's.
    expect(check.problems.map((problem) => problem.path)).toEqual(["workflow.steps[1].prompt.task", "workflow.steps[1].guards[2]", "workflow.steps[1].guard_artifact_deps[0]"]);
    expect(check.problemStates).toEqual({ 0: "implementing", 1: "implementing", 2: "implementing" });
  });

  it("a syntax error names its line and ties to no state", () => {
    const check = checkWorkflowDocument("workflow:\n  name: [unclosed\n");
    expect(check.ok).toBe(false);
    expect(check.problems[0]?.line).toBeGreaterThan(0);
    expect(check.problemStates).toEqual({});
    expect(check.problemTransitions).toEqual({});
  });

  it("a valid document has no warnings when it relies on no default", () => {
    expect(checkWorkflowDocument(tdd)).toMatchObject({ ok: true, problems: [], warnings: [], warningStates: {} });
  });

  it("a document that relies on a default is valid, draws its machine, and carries its warnings apart from problems", () => {
    const check = checkWorkflowDocument(RELIES_ON_A_DEFAULT.text);
    expect(check.ok).toBe(true);
    expect(check.problems).toEqual([]);
    expect(check.machine?.states.map((state) => state.name)).toEqual(["writing", "done"]);
    expect(check.warnings.some((warning) => RELIES_ON_A_DEFAULT.warning.test(`${warning.path}: ${warning.message}`))).toBe(true);
    for (const warning of check.warnings) expect(warning.line).toBeGreaterThan(0);
  });

  it("keeps a result's warnings out of its problems on both branches, and ties each to the state it names (hand-made results)", () => {
    const valid = validateWorkflowDocument(tdd, "workflow.yaml");
    if (!valid.ok) throw new Error("the example must be valid");
    const warning = { path: "workflow.steps[1].run_if", line: 40, column: 7, message: 'relies on "should_restart", which nothing sets: false unless a run sets it' };
    const checked = documentCheckOf(tdd, { ...valid, warnings: [warning] });
    expect(checked).toMatchObject({ ok: true, problems: [], warnings: [warning], problemStates: {}, warningStates: { 0: "implementing" } });
    expect(checked.machine).not.toBeNull();

    const problem = { path: "workflow.state_machine.states[0]", line: 19, column: 14, message: 'state "writing_tests" has no path to a final state (done)' };
    const invalid = documentCheckOf(tdd, { ok: false, problems: [problem], warnings: [warning] });
    expect(invalid).toMatchObject({ ok: false, problems: [problem], warnings: [warning], problemStates: { 0: "writing_tests" }, warningStates: { 0: "implementing" } });
  });
});

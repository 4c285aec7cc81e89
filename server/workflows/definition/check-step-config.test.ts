/* eslint-disable @typescript-eslint/no-explicit-any -- the cases mutate a parsed document freely */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, loadWorkflowDocument } from "../document";
import { validateWorkflowDocument } from "./validate-definition";

// check-guard-config.ts and check-generator-config.ts, through the validator.

/** The TDD example (tests first, then an implementation with `tdd` and g_test as its dependency), mutated per case. */
function validateAfter(mutate: (workflow: Record<string, any>) => void) {
  const loaded = loadWorkflowDocument(readFileSync(join(import.meta.dirname, "fixtures", "tdd-lru-cache.yaml"), "utf8"));
  if (!loaded.ok) throw new Error("fixture does not load");
  const workflow = structuredClone((loaded.value as { workflow: Record<string, any> }).workflow);
  mutate(workflow);
  return validateWorkflowDocument(JSON.stringify({ workflow }, null, 2), "workflow.json");
}

function problemsAfter(mutate: (workflow: Record<string, any>) => void): string[] {
  const result = validateAfter(mutate);
  if (result.ok) expect.fail("expected problems");
  return result.problems.map(formatProblem);
}

const TDD_MESSAGE = "a tdd guard takes its tests from a dependency named test, and this step has none: add the guard id of the step that writes the tests (g_test) to guard_artifact_deps";

describe("guard configurations no attempt could pass are validation errors, located at the guard", () => {
  it("accepts the example, whose tdd guard has g_test as a dependency", () => {
    expect(validateAfter(() => {}).ok).toBe(true);
  });

  it("reports a tdd guard whose step has no dependency named test, with its line", () => {
    expect(problemsAfter((w) => delete w.steps[1].guard_artifact_deps)).toEqual([`workflow.steps[1].guards[1] (line 84, column 11): ${TDD_MESSAGE}`]);
  });

  it("does not count a dependency under another name, nor accept a test guard id without the g_ prefix rule", () => {
    const problems = problemsAfter((w) => {
      w.steps[0].guard_id = "g_tests";
      w.state_machine.transitions[0].condition = "g_tests";
      w.steps[1].guard_artifact_deps = ["g_tests"];
    });
    expect(problems.map((line) => line.replace(/ \(line \d+, column \d+\)/, ""))).toEqual([`workflow.steps[1].guards[1]: ${TDD_MESSAGE}`]);
  });

  it("accepts a dependency whose guard id is test itself (handed over as test)", () => {
    const result = validateAfter((w) => {
      w.steps[0].guard_id = "test";
      w.state_machine.transitions[0].condition = "test";
      w.steps[1].guard_artifact_deps = ["test"];
    });
    expect(result.ok).toBe(true);
  });

  it("finds a tdd guard inside composites, at its nested place", () => {
    const problems = problemsAfter((w) => {
      delete w.steps[1].guard_artifact_deps;
      w.steps[1].guards = [{ kind: "any_of", guards: [{ kind: "syntax" }, { kind: "all_of", guards: [{ kind: "tdd" }] }] }];
    });
    expect(problems.map((line) => line.replace(/ \(line \d+, column \d+\)/, ""))).toEqual([`workflow.steps[1].guards[0].guards[1].guards[0]: ${TDD_MESSAGE}`]);
  });

  it("reports a test guard with neither a test option nor a test dependency, and accepts either", () => {
    expect(problemsAfter((w) => (w.steps[0].guards = [{ kind: "test" }])).map((line) => line.replace(/ \(line \d+, column \d+\)/, ""))).toEqual([
      "workflow.steps[0].guards[0]: a test guard needs tests: give it a `test` option, or a dependency named test (g_test in guard_artifact_deps)",
    ]);
    expect(validateAfter((w) => (w.steps[0].guards = [{ kind: "test", test: "def test_x():\n    assert True\n" }])).ok).toBe(true);
    expect(validateAfter((w) => (w.steps[1].guards = [{ kind: "test" }])).ok).toBe(true);
  });

  it.each([
    ["an unknown type", { type: "strin" }, /^workflow\.steps\[0\]\.guards\[0\]\.schema: not a valid JSON Schema: .*type/],
    ["a pattern RE2 cannot compile", { type: "string", pattern: "(?<=a)b" }, /^workflow\.steps\[0\]\.guards\[0\]\.schema: \/pattern: the pattern is not supported by the linear-time/],
    ["a pattern that is not a regular expression", { type: "string", pattern: "(unclosed" }, /^workflow\.steps\[0\]\.guards\[0\]\.schema: /],
  ])("reports a json_schema guard whose schema has %s", (_case, schema, expected) => {
    const problems = problemsAfter((w) => (w.steps[0].guards = [{ kind: "json_schema", schema }]));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.replace(/ \(line \d+, column \d+\)/, "")).toMatch(expected);
  });

  it("leaves a step whose guards did not parse to the shape error alone", () => {
    const problems = problemsAfter((w) => {
      delete w.steps[1].guard_artifact_deps;
      w.steps[1].guards = [{ kind: "tdd", language: 3 }];
    });
    expect(problems.map((line) => line.replace(/ \(line \d+, column \d+\)/, ""))).toEqual(["workflow.steps[1].guards[0].language: Invalid input: expected string, received number"]);
  });

});

describe("generator configurations every run would fail on are validation errors", () => {
  it("reports a replay generator whose own cassette has no answers for its step, and accepts one that has", () => {
    const cassette = { steps: { write_test: ["def test_x():\n    assert True\n"] } };
    expect(problemsAfter((w) => (w.steps[0].generator = { kind: "replay", cassette })).map((line) => line.replace(/ \(line \d+, column \d+\)/, ""))).toEqual([
      'workflow.steps[0].generator.cassette.steps: has no answers for step "write_tests" (it has "write_test"): every run of this step would fail',
    ]);
    expect(validateAfter((w) => (w.steps[0].generator = { kind: "replay", cassette: { steps: { write_tests: ["x"] } } })).ok).toBe(true);
    // A cassette given by name is looked up on the server when a run starts.
    expect(validateAfter((w) => (w.steps[0].generator = { kind: "replay", cassette: "tdd-lru-cache" })).ok).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { validateWorkflowDocument } from "../../workflows/definition";
import { minimalWorkflowDefinition } from "../../workflows/definition/testing/minimal-workflow";
import { validationOutput } from "./validation-output";

const warnings = [
  { path: "state_machine", line: 7, column: 3, message: "final_states not given: inferred as done (the states with no way out)" },
  { path: "context.has_idea", message: "is used by a condition but nothing sets it: false unless a run sets it" },
];
const checked = validateWorkflowDocument(JSON.stringify(minimalWorkflowDefinition("haiku")));
if (!checked.ok) throw new Error("the minimal workflow must be valid");
const { definition } = checked;
const problems = [{ path: "steps[0].in_state", line: 12, column: 15, message: '"c" is not a declared state (state_machine.states)' }];

describe("validationOutput (hand-made results: how `dualstate validate` shows warnings)", () => {
  it("a valid document with warnings: the summary counts them, each is a `warning:` line on stderr, and the status stays 0", () => {
    const output = validationOutput({ ok: true, definition, warnings }, false);
    expect(output.code).toBe(0);
    expect(output.out).toMatch(/^haiku: valid \(2 states, 1 step, 0 guards\), 2 warnings$/);
    expect(output.err.split("\n")).toEqual([
      "warning: state_machine (line 7, column 3): final_states not given: inferred as done (the states with no way out)",
      "warning: context.has_idea: is used by a condition but nothing sets it: false unless a run sets it",
    ]);
    expect(validationOutput({ ok: true, definition, warnings: warnings.slice(0, 1) }, false).out).toMatch(/\), 1 warning$/);
  });

  it("a valid document without warnings prints what it always did", () => {
    const output = validationOutput({ ok: true, definition, warnings: [] }, false);
    expect(output).toEqual({ out: "haiku: valid (2 states, 1 step, 0 guards)", err: "", code: 0 });
  });

  it("an invalid document: errors first, then warnings, never counted as errors; status 1 as without warnings", () => {
    const output = validationOutput({ ok: false, problems, warnings }, false);
    expect(output.code).toBe(1);
    expect(output.out).toBe("");
    expect(output.err.split("\n")).toEqual([
      'steps[0].in_state (line 12, column 15): "c" is not a declared state (state_machine.states)',
      "warning: state_machine (line 7, column 3): final_states not given: inferred as done (the states with no way out)",
      "warning: context.has_idea: is used by a condition but nothing sets it: false unless a run sets it",
    ]);
    expect(validationOutput({ ok: false, problems, warnings: [] }, false).err).toBe('steps[0].in_state (line 12, column 15): "c" is not a declared state (state_machine.states)');
  });

  it("--json keeps problems and warnings in separate lists, on stdout only, with the same status", () => {
    const valid = validationOutput({ ok: true, definition, warnings }, true);
    expect(valid.err).toBe("");
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.out)).toEqual({ ok: true, workflow: { name: "haiku", states: 2, steps: 1, guards: 0 }, problems: [], warnings });

    const invalid = validationOutput({ ok: false, problems, warnings }, true);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.out)).toEqual({ ok: false, problems, warnings });
  });

  it("--json escapes terminal control characters a document's text may carry", () => {
    const output = validationOutput({ ok: false, problems: [{ path: "name", message: "bad \u001b]0;title\u0007 \u009b" }], warnings: [] }, true);
    expect(output.out).not.toMatch(/[\u009b]/);
    expect((JSON.parse(output.out) as { problems: { message: string }[] }).problems[0]!.message).toBe("bad \u001b]0;title\u0007 \u009b");
  });
});

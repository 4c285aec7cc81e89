import { describe, expect, it } from "vitest";
import { invalidDocumentMessage, WARNINGS_HEADING } from "./save-workflow-document";

const problems = [
  { path: "steps[0].in_state", line: 14, column: 15, message: '"nowhere" is not a declared state (state_machine.states)' },
  { path: "name", message: "is required" },
];
const warnings = [{ path: "state_machine", line: 8, column: 3, message: "final_states not given: inferred as done (the states with no way out)" }];

describe("invalidDocumentMessage (the refusal of an invalid save)", () => {
  it("is the error lines alone when there are no warnings", () => {
    expect(invalidDocumentMessage(problems, [])).toBe('steps[0].in_state (line 14, column 15): "nowhere" is not a declared state (state_machine.states)\nname: is required');
  });

  it("puts the warnings after the errors, under their own heading and with the warning: prefix", () => {
    expect(invalidDocumentMessage(problems, warnings).split("\n")).toEqual([
      'steps[0].in_state (line 14, column 15): "nowhere" is not a declared state (state_machine.states)',
      "name: is required",
      "",
      WARNINGS_HEADING,
      "warning: state_machine (line 8, column 3): final_states not given: inferred as done (the states with no way out)",
    ]);
  });
});

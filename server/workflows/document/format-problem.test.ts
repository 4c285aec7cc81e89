import { describe, expect, it } from "vitest";
import { formatFindings, formatProblem, formatWarning } from "./format-problem";

describe("formatProblem and formatWarning", () => {
  it("print a warning as the problem's line behind a `warning:` prefix, with or without a place", () => {
    const placed = { path: "state_machine", line: 7, column: 3, message: "final_states not given: inferred as done" };
    expect(formatProblem(placed)).toBe("state_machine (line 7, column 3): final_states not given: inferred as done");
    expect(formatWarning(placed)).toBe("warning: state_machine (line 7, column 3): final_states not given: inferred as done");
    expect(formatWarning({ path: "context.has_idea", line: 4, message: "nothing sets it" })).toBe("warning: context.has_idea (line 4): nothing sets it");
    expect(formatWarning({ path: "document", message: "relies on a default" })).toBe("warning: document: relies on a default");
  });

  it("list every error before every warning, whatever their lines", () => {
    const warning = { path: "state_machine", line: 1, message: "inferred" };
    const error = { path: "steps[0].name", line: 9, column: 5, message: "is required" };
    expect(formatFindings([error], [warning])).toEqual(["steps[0].name (line 9, column 5): is required", "warning: state_machine (line 1): inferred"]);
    expect(formatFindings([], [])).toEqual([]);
    expect(formatFindings([error], [])).toEqual(["steps[0].name (line 9, column 5): is required"]);
  });
});

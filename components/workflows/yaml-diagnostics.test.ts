import { Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { findingsToDiagnostics, offsetOf, problemsToDiagnostics } from "./yaml-diagnostics";

const text = Text.of(["workflow:", "  name: x", "  steps: []"]);

describe("problemsToDiagnostics", () => {
  it("marks from the cited column to the end of the cited line", () => {
    expect(problemsToDiagnostics(text, [{ path: "workflow.name", line: 2, column: 9, message: "too short" }])).toEqual([
      { from: 18, to: 19, severity: "error", source: "workflow.name", message: "workflow.name: too short" },
    ]);
  });

  it("marks the whole line when no column is cited, and leaves out problems without a line", () => {
    const diagnostics = problemsToDiagnostics(text, [
      { path: "workflow.steps", line: 3, message: "at least one step" },
      { path: "document", message: "too large" },
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ from: 20, to: 31 });
  });

  it("marks warnings with the warning severity and a warning: message, beside errors and never as one", () => {
    const diagnostics = findingsToDiagnostics(text, [{ path: "workflow.name", line: 2, column: 9, message: "too short" }], [{ path: "workflow.steps", line: 3, column: 3, message: "relies on a default" }, { path: "document", message: "no place" }]);
    expect(diagnostics).toEqual([
      { from: 18, to: 19, severity: "error", source: "workflow.name", message: "workflow.name: too short" },
      { from: 22, to: 31, severity: "warning", source: "workflow.steps", message: "warning: workflow.steps: relies on a default" },
    ]);
    expect(findingsToDiagnostics(text, [], [{ path: "workflow.name", line: 2, message: "inferred" }]).map((diagnostic) => diagnostic.severity)).toEqual(["warning"]);
  });

  it("clamps places past the end of a text edited since the check", () => {
    expect(offsetOf(text, 40, 80)).toBe(text.length);
    expect(offsetOf(text, 0)).toBe(0);
    expect(offsetOf(text, 1, 500)).toBe(9);
  });
});

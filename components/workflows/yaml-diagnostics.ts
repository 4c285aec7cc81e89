import type { Text } from "@codemirror/state";
import type { Diagnostic } from "@codemirror/lint";
import type { DocumentProblem } from "./document-verdict";

/** The offset of a 1-based line and column, clamped into the text (it may have changed since the check). */
export function offsetOf(text: Text, line: number, column = 1): number {
  const at = text.line(Math.min(Math.max(line, 1), text.lines));
  return Math.min(at.from + Math.max(column - 1, 0), at.to);
}

/**
 * The validator's problems (or warnings, with `severity: "warning"`) as editor diagnostics: from
 * the cited column to the end of its line (the whole line when no column is cited). Those without
 * a line have no place in the text and stay in the list below the editor only.
 */
export function problemsToDiagnostics(text: Text, problems: readonly DocumentProblem[], severity: "error" | "warning" = "error"): Diagnostic[] {
  return problems.flatMap((problem) => {
    if (problem.line === undefined) return [];
    const from = offsetOf(text, problem.line, problem.column);
    const to = text.lineAt(from).to;
    return [{ from, to: Math.max(to, from), severity, source: problem.path, message: `${severity === "warning" ? "warning: " : ""}${problem.path}: ${problem.message}` }];
  });
}

/** Problems as errors and warnings as warnings, in one list for the editor (CodeMirror sorts them by place). */
export function findingsToDiagnostics(text: Text, problems: readonly DocumentProblem[], warnings: readonly DocumentProblem[]): Diagnostic[] {
  return [...problemsToDiagnostics(text, problems, "error"), ...problemsToDiagnostics(text, warnings, "warning")];
}

import type { DocumentProblem } from "./types";

/** One line per problem: `path: message` or `path (line L, column C): message`. */
export function formatProblem(problem: DocumentProblem): string {
  if (problem.line === undefined) return `${problem.path}: ${problem.message}`;
  const column = problem.column === undefined ? "" : `, column ${problem.column}`;
  return `${problem.path} (line ${problem.line}${column}): ${problem.message}`;
}

/** The word that sets a warning apart from an error wherever both are printed as text. */
export const WARNING_PREFIX = "warning: ";

/** One line per warning: a problem's line with the `warning: ` prefix, so it never reads as an error. */
export function formatWarning(warning: DocumentProblem): string {
  return `${WARNING_PREFIX}${formatProblem(warning)}`;
}

/** Every error line, then every warning line: the order `dualstate validate` and `run` print them in. */
export function formatFindings(problems: readonly DocumentProblem[], warnings: readonly DocumentProblem[]): string[] {
  return [...problems.map(formatProblem), ...warnings.map(formatWarning)];
}

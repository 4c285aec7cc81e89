import type { DocumentProblem } from "./types";

/** One line per problem: `path: message` or `path (line L, column C): message`. */
export function formatProblem(problem: DocumentProblem): string {
  if (problem.line === undefined) return `${problem.path}: ${problem.message}`;
  const column = problem.column === undefined ? "" : `, column ${problem.column}`;
  return `${problem.path} (line ${problem.line}${column}): ${problem.message}`;
}

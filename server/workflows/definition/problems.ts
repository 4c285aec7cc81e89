import type { z } from "zod";
import { formatPath, type DocumentPath, type DocumentProblem, type SourcePosition } from "../document";

/** Problems listed before the rest are counted in one last line, so a broken document stays readable. */
export const MAX_DEFINITION_PROBLEMS = 200;

/**
 * Where a part of the workflow the checks read was written: the seeds' shorthands move parts
 * (`action_pair.generator` → `generator`), and a problem must point at what the author wrote.
 */
export type SourcePathOf = (path: DocumentPath) => DocumentPath;

/**
 * Collects problems (the document is invalid) and warnings (it relies on a default or an
 * inference, or has a part that can never run) at document paths; `base` is `["workflow"]` for
 * agent.yaml-style documents.
 */
export class Problems {
  readonly items: DocumentProblem[] = [];
  readonly warnings: DocumentProblem[] = [];
  constructor(
    private readonly base: DocumentPath,
    private readonly locate: (path: DocumentPath) => SourcePosition | undefined,
    private readonly sourcePathOf: SourcePathOf = (path) => path,
  ) {}

  /** `asWritten`: the path is already where the author wrote it (not a checked part's). */
  add(path: DocumentPath, message: string, asWritten = false): void {
    this.items.push(this.at(path, message, asWritten));
  }

  warn(path: DocumentPath, message: string, asWritten = false): void {
    this.warnings.push(this.at(path, message, asWritten));
  }

  private at(path: DocumentPath, message: string, asWritten: boolean): DocumentProblem {
    const full = [...this.base, ...(asWritten ? path : this.sourcePathOf(path))];
    return { path: formatPath(full), ...this.nearest(full), message };
  }

  /** Where the path is written, or for a missing field, where its nearest enclosing part is. */
  private nearest(path: DocumentPath): SourcePosition | undefined {
    for (let length = path.length; length > 0; length--) {
      const position = this.locate(path.slice(0, length));
      if (position) return position;
    }
    return undefined;
  }

  /** In document order (by line, then column; a problem without a line keeps its place first), capped. */
  report(): DocumentProblem[] {
    return inDocumentOrder(this.items, "problem");
  }

  reportWarnings(): DocumentProblem[] {
    return inDocumentOrder(this.warnings, "warning");
  }

  /** `input` is what was parsed: zod v4 issues do not carry the offending value, so it is looked up. */
  addZod(issues: readonly z.core.$ZodIssue[], input: unknown): void {
    for (const issue of issues) {
      const path = issue.path.filter((part): part is string | number => typeof part !== "symbol");
      // One problem per unknown key, at the key, so each names its own place.
      if (issue.code === "unrecognized_keys") for (const key of issue.keys) this.add([...path, key], "unknown key");
      else this.add(path, zodMessage(issue, valueAt(input, path)));
    }
  }
}

/** By line, then column; one without a line keeps its place first. Capped, with a last line counting the rest. */
function inDocumentOrder(items: readonly DocumentProblem[], noun: string): DocumentProblem[] {
  const ordered = items
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => (a.problem.line ?? 0) - (b.problem.line ?? 0) || (a.problem.column ?? 0) - (b.problem.column ?? 0) || a.index - b.index)
    .map(({ problem }) => problem);
  if (ordered.length <= MAX_DEFINITION_PROBLEMS) return ordered;
  const more = ordered.length - MAX_DEFINITION_PROBLEMS;
  return [...ordered.slice(0, MAX_DEFINITION_PROBLEMS), { path: "document", message: `and ${more} more ${noun}${more === 1 ? "" : "s"} not shown` }];
}

/** zod's defaults ("Invalid input: expected string, received undefined") rephrased for authors. */
function zodMessage(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_union":
      return value === undefined ? "is required" : issue.message;
    case "invalid_type":
      if (value === undefined) return "is required";
      // z.number().int() reports a fraction as a wrong type; say what is wrong with it instead.
      if (issue.expected === "int" && typeof value === "number") return "must be a whole number";
      return `must be ${article(issue.expected)} (got ${describe(value)})`;
    case "invalid_value":
      return `${JSON.stringify(value)}: must be one of ${issue.values.map(String).join(", ")}`;
    default:
      return issue.message;
  }
}

/** The value at `path` inside a parsed document, or undefined where the path leaves it. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

function article(expected: string): string {
  if (expected === "array") return "a list";
  if (expected === "object" || expected === "record") return "a mapping";
  if (expected === "string") return "text";
  return `a ${expected}`;
}

function describe(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object") return "a mapping";
  return typeof input === "string" ? "text" : `${typeof input} ${String(input)}`;
}

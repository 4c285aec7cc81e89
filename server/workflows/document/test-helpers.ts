import { expect } from "vitest";
import { loadWorkflowDocument } from "./load";
import type { DocumentProblem, LoadOptions } from "./types";

/** Loads text that must be rejected and returns its problems. */
export function problemsOf(text: string, options?: LoadOptions): DocumentProblem[] {
  const result = loadWorkflowDocument(text, options);
  if (result.ok) expect.fail(`expected problems, got ${JSON.stringify(result.value)}`);
  return result.problems;
}

/** Loads text that must be accepted and returns its value. */
export function valueOf(text: string, options?: LoadOptions): unknown {
  const result = loadWorkflowDocument(text, options);
  if (!result.ok) expect.fail(`expected a value, got ${JSON.stringify(result.problems)}`);
  return result.value;
}

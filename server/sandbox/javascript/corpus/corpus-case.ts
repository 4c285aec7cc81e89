import type { SandboxLanguage } from "../../types";

/**
 * One realistic artifact with its tests, in a style people and models write, that must pass the
 * test guard as written; `bug` turns it into a wrong artifact (replace the first `bug[0]` with
 * `bug[1]`) whose run must fail, naming the test `failing` (its full describe path).
 */
export interface CorpusCase {
  readonly name: string;
  readonly language: Exclude<SandboxLanguage, "python">;
  readonly artifact: string;
  readonly tests: string;
  /** How many tests run and are reported; tests the file marks as not to run are not counted. */
  readonly count: number;
  readonly bug: readonly [string, string];
  readonly failing: string;
}

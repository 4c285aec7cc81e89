import { MAX_PROBLEMS } from "./limits";
import type { DocumentProblem, SourcePosition } from "./types";

/** Turns a source offset into a 1-based line and column. */
export type Positioner = (offset: number) => SourcePosition;

/**
 * Collects problems up to a cap, so a file with thousands of mistakes still
 * yields a list a person can read (and the loader stays cheap).
 */
export class ProblemList {
  readonly items: DocumentProblem[] = [];
  private dropped = 0;

  constructor(private readonly position: Positioner) {}

  get full(): boolean {
    return this.items.length >= MAX_PROBLEMS;
  }

  add(path: string, message: string, offset?: number): void {
    if (this.full) {
      this.dropped++;
      return;
    }
    this.items.push(offset === undefined ? { path, message } : { path, ...this.position(offset), message });
  }

  /** Position of an offset, for messages that mention a second place. */
  at(offset: number): SourcePosition {
    return this.position(offset);
  }

  finish(): DocumentProblem[] {
    if (this.dropped === 0) return this.items;
    return [...this.items, { path: "document", message: `${this.dropped} more problem(s) not shown` }];
  }
}

/** Builds a positioner from the text itself, for checks that run before the YAML parser. */
export function positionerFor(text: string): Positioner {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };
}

import { diffLines } from "diff";

export interface DiffLine {
  readonly kind: "added" | "removed" | "same";
  readonly text: string;
}

/** A line diff from `before` to `after`, one entry per line, for the review page. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const change of diffLines(before, after)) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const text = change.value.endsWith("\n") ? change.value.slice(0, -1) : change.value;
    for (const line of text.split("\n")) lines.push({ kind, text: line });
  }
  return lines;
}

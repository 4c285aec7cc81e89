import { compareFindings, type Finding } from "./finding";

/** A person reads the escalation; ten lines say enough about what the code tried to do. */
export const MAX_FEEDBACK_LINES = 10;

/**
 * One line per forbidden construct, most severe first, each with the line(s) it occurs on:
 * "Security: os.system forbidden (line 3)" or "Security: eval forbidden (lines 2, 9)".
 */
export function formatFindings(findings: readonly Finding[]): string {
  const byConstruct = new Map<string, { first: Finding; lines: number[] }>();
  for (const finding of [...findings].sort(compareFindings)) {
    const entry = byConstruct.get(finding.construct);
    if (!entry) byConstruct.set(finding.construct, { first: finding, lines: [finding.line] });
    else if (!entry.lines.includes(finding.line)) entry.lines.push(finding.line);
  }
  const entries = [...byConstruct.values()];
  const lines = entries.slice(0, MAX_FEEDBACK_LINES).map(({ first, lines: at }) => {
    const sorted = [...at].sort((a, b) => a - b);
    const where = sorted.length === 1 ? `line ${sorted[0]}` : `lines ${sorted.join(", ")}`;
    return `Security: ${first.construct} forbidden (${where})`;
  });
  const hidden = entries.length - MAX_FEEDBACK_LINES;
  if (hidden > 0) lines.push(`Security: and ${hidden} more forbidden construct${hidden === 1 ? "" : "s"}`);
  return lines.join("\n");
}

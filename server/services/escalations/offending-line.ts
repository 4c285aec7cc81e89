/**
 * The line a guard's feedback points at ("line 5", "file.py:5", "at 5:12"), if it names one that
 * exists in the artifact; the review page marks it.
 */
export function offendingLine(feedback: string, content: string): number | null {
  const lineCount = content.split("\n").length;
  const patterns = [/\bline\s+(\d+)/i, /\.\w+:(\d+)(?::\d+)?\b/, /\bat\s+(\d+):\d+\b/];
  for (const pattern of patterns) {
    const match = pattern.exec(feedback);
    const line = match ? Number(match[1]) : NaN;
    if (Number.isInteger(line) && line >= 1 && line <= lineCount) return line;
  }
  return null;
}

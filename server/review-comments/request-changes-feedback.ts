import { artifactLines, describeLines, lastLineOf, type LineComment } from "./line-comment";

/** The feedback's bound: it goes into the next prompt whole. */
export const MAX_FEEDBACK = 60_000;
/** Lines of a range quoted under its comment, and characters of each quoted line. */
const QUOTED_LINES = 3;
const QUOTED_LINE_CHARS = 160;

/**
 * "Request changes": the feedback the next attempt's prompt carries, made of the reviewer's
 * summary and every line comment, in line order, with its line numbers, the line(s) it is on
 * quoted (so the model need not count lines), and the suggested replacement when there is one:
 *
 *     line 5: do not shell out
 *       > os.system('du -sh ' + path)
 *       suggested replacement:
 *       | print(len(path))
 */
export function requestChangesFeedback(content: string, summary: string, comments: readonly LineComment[]): string {
  const lines = artifactLines(content);
  const ordered = [...comments].sort((a, b) => a.line - b.line || lastLineOf(a) - lastLineOf(b));
  const parts: string[] = [];
  if (summary.trim()) parts.push(summary.trim());
  if (ordered.length > 0) {
    const blocks = ordered.map((comment) => {
      const block = [`${describeLines(comment)}: ${comment.body.trim() || "suggested change"}`];
      const quoted = lines.slice(comment.line - 1, Math.min(lastLineOf(comment), comment.line - 1 + QUOTED_LINES));
      for (const line of quoted) block.push(`  > ${line.length > QUOTED_LINE_CHARS ? `${line.slice(0, QUOTED_LINE_CHARS)}…` : line}`);
      const more = lastLineOf(comment) - comment.line + 1 - quoted.length;
      if (more > 0) block.push(`  > … (${more} more line${more === 1 ? "" : "s"})`);
      if (comment.suggestion !== undefined) {
        if (comment.suggestion === "") block.push("  suggested: delete these lines");
        else block.push("  suggested replacement:", ...artifactLines(comment.suggestion).map((line) => `  | ${line}`));
      }
      return block.join("\n");
    });
    parts.push(`Review comments on your last attempt, by line number:\n${blocks.join("\n")}`);
  }
  return parts.join("\n\n");
}

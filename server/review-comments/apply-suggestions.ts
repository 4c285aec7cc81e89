import { artifactLines, describeLines, lastLineOf, lineCommentProblems, type LineComment } from "./line-comment";

/** The size a reviewer's edit may have (the decide procedure's bound on editedContent). */
export const MAX_EDITED_CONTENT = 1_000_000;

export type SuggestionsApplied = { readonly ok: true; readonly content: string; readonly applied: number } | { readonly ok: false; readonly problem: string };

/**
 * The artifact with every suggested change applied: each suggestion replaces its comment's lines
 * (an empty suggestion deletes them). Refused, naming the comments at fault, when a comment does
 * not fit the artifact, when two suggestions touch a common line (which one wins would be a
 * guess), when there is no suggestion, or when the result is larger than an edit may be.
 * Comments without a suggestion change nothing.
 */
export function applySuggestions(content: string, comments: readonly LineComment[]): SuggestionsApplied {
  const problems = lineCommentProblems(content, comments);
  if (problems.length > 0) return { ok: false, problem: problems.join("; ") };
  const suggestions = comments.map((comment, index) => ({ comment, index })).filter(({ comment }) => comment.suggestion !== undefined);
  if (suggestions.length === 0) return { ok: false, problem: "comments: there is no suggested change to apply" };
  suggestions.sort((a, b) => a.comment.line - b.comment.line || lastLineOf(a.comment) - lastLineOf(b.comment));
  for (let position = 1; position < suggestions.length; position++) {
    const before = suggestions[position - 1]!;
    const after = suggestions[position]!;
    if (after.comment.line <= lastLineOf(before.comment)) {
      return {
        ok: false,
        problem: `comments[${after.index}]: its suggestion on ${describeLines(after.comment)} overlaps the suggestion of comments[${before.index}] on ${describeLines(before.comment)}; keep one of them`,
      };
    }
  }
  const lines = artifactLines(content);
  // A suggestion typed in a browser breaks lines with "\n": in an artifact that breaks them with
  // "\r\n" its lines take the artifact's line ending, so the edit does not mix the two.
  const lineEnd = content.includes("\r\n") ? "\r" : "";
  const result: string[] = [];
  let next = 1;
  for (const { comment } of suggestions) {
    result.push(...lines.slice(next - 1, comment.line - 1));
    if (comment.suggestion !== "") result.push(...artifactLines(comment.suggestion ?? "").map((line) => line.replace(/\r$/, "") + lineEnd));
    next = lastLineOf(comment) + 1;
  }
  result.push(...lines.slice(next - 1));
  // The artifact's last line never carries a line ending of its own.
  if (result.length > 0) result[result.length - 1] = result[result.length - 1]!.replace(/\r$/, "");
  const edited = result.join("\n");
  if (edited.length > MAX_EDITED_CONTENT) return { ok: false, problem: `comments: the artifact with the suggestions applied has ${edited.length} characters; an edit has at most ${MAX_EDITED_CONTENT}` };
  return { ok: true, content: edited, applied: suggestions.length };
}

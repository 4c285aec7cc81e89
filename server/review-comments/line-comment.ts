/**
 * A reviewer's comment on a line or a range of lines of an escalated artifact, as a pull request
 * review has them: a remark, and optionally a suggested change that replaces those lines. Pending
 * comments live in the reviewer's browser until they are submitted, all at once, with a decision.
 * Lines are numbered from 1 over `content.split("\n")`, as the review page numbers them.
 */
export interface LineComment {
  /** First line the comment is on (1-based). */
  readonly line: number;
  /** Last line of a range (inclusive); absent for a single line. */
  readonly endLine?: number;
  /** The remark; may be empty when the comment is only a suggestion. */
  readonly body: string;
  /** What replaces lines `line`..`endLine`: "" deletes them; absent when the comment suggests nothing. */
  readonly suggestion?: string;
}

/** Bounds on what one decision may carry: everything here comes from a browser, so every size is capped. */
export const LINE_COMMENT_LIMITS = {
  /** Comments submitted with one decision. */
  comments: 100,
  /** Characters of one comment's remark. */
  body: 5_000,
  /** Characters of one suggested change. */
  suggestion: 50_000,
  /** Lines one comment may span. */
  rangeLines: 500,
} as const;

/** The artifact's lines as the review page numbers them. */
export function artifactLines(content: string): string[] {
  return content.split("\n");
}

/** The comment's last line (its first one when it is on a single line). */
export function lastLineOf(comment: LineComment): number {
  return comment.endLine ?? comment.line;
}

/** "line 12" or "lines 12-14", as feedback and errors name a comment's place. */
export function describeLines(comment: LineComment): string {
  const last = lastLineOf(comment);
  return last === comment.line ? `line ${comment.line}` : `lines ${comment.line}-${last}`;
}

/** Why comment number `index` (0-based) does not fit the artifact, naming the comment and its field; null when it does. */
function problemOf(comment: LineComment, index: number, lineCount: number): string | null {
  const at = `comments[${index}]`;
  if (!Number.isInteger(comment.line) || comment.line < 1) return `${at}.line: must be a line number from 1`;
  if (comment.line > lineCount) return `${at}.line: line ${comment.line} is past the artifact's last line (${lineCount})`;
  if (comment.endLine !== undefined) {
    if (!Number.isInteger(comment.endLine) || comment.endLine < comment.line) return `${at}.endLine: must be a line number from line ${comment.line} on`;
    if (comment.endLine > lineCount) return `${at}.endLine: line ${comment.endLine} is past the artifact's last line (${lineCount})`;
    if (comment.endLine - comment.line + 1 > LINE_COMMENT_LIMITS.rangeLines) return `${at}.endLine: a comment spans at most ${LINE_COMMENT_LIMITS.rangeLines} lines`;
  }
  if (typeof comment.body !== "string" || comment.body.length > LINE_COMMENT_LIMITS.body) return `${at}.body: must be at most ${LINE_COMMENT_LIMITS.body} characters`;
  if (comment.suggestion !== undefined && (typeof comment.suggestion !== "string" || comment.suggestion.length > LINE_COMMENT_LIMITS.suggestion)) {
    return `${at}.suggestion: must be at most ${LINE_COMMENT_LIMITS.suggestion} characters`;
  }
  if (comment.body.trim() === "" && comment.suggestion === undefined) return `${at}.body: a comment needs a remark or a suggested change`;
  return null;
}

/**
 * The problems of a set of comments on `content`, each naming the comment and field at fault
 * (empty when they all fit): too many, a line past the end, a range backwards or too long,
 * an empty remark without a suggestion, a size over its bound.
 */
export function lineCommentProblems(content: string, comments: readonly LineComment[]): string[] {
  if (comments.length > LINE_COMMENT_LIMITS.comments) return [`comments: at most ${LINE_COMMENT_LIMITS.comments} comments go with one decision (got ${comments.length})`];
  const lineCount = artifactLines(content).length;
  const problems: string[] = [];
  comments.forEach((comment, index) => {
    const problem = problemOf(comment, index, lineCount);
    if (problem) problems.push(problem);
  });
  return problems;
}

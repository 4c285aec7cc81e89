import { LINE_COMMENT_LIMITS, type LineComment } from "@/server/review-comments/line-comment";

/** A line comment not submitted yet: kept in the reviewer's browser until it goes with a decision. */
export interface PendingComment extends LineComment {
  /** Local only, to remove it again; never sent. */
  readonly id: string;
}

/** Per escalation and artifact: comments on one artifact never show up on another's lines. */
export function pendingCommentsKey(escalationId: string, contentHash: string): string {
  return `dualstate:review-comments:${escalationId}:${contentHash}`;
}

const isLineNumber = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 1;

/**
 * The pending comments stored under a key, read defensively: storage is anyone's to edit, so
 * anything that is not a well-formed comment within the bounds is dropped, and at most the
 * number a decision takes is kept.
 */
export function parsePendingComments(stored: string | null): PendingComment[] {
  if (!stored) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const comments: PendingComment[] = [];
  for (const entry of parsed.slice(0, LINE_COMMENT_LIMITS.comments)) {
    if (typeof entry !== "object" || entry === null) continue;
    const { id, line, endLine, body, suggestion } = entry as Record<string, unknown>;
    if (typeof id !== "string" || id.length > 100 || !isLineNumber(line) || typeof body !== "string" || body.length > LINE_COMMENT_LIMITS.body) continue;
    if (endLine !== undefined && (!isLineNumber(endLine) || endLine < line)) continue;
    if (suggestion !== undefined && (typeof suggestion !== "string" || suggestion.length > LINE_COMMENT_LIMITS.suggestion)) continue;
    comments.push({ id, line, body, ...(endLine !== undefined ? { endLine } : {}), ...(suggestion !== undefined ? { suggestion } : {}) });
  }
  return comments;
}

/** The comments as the decide procedure takes them (without their local ids). */
export function submittedComments(comments: readonly PendingComment[]): LineComment[] {
  return comments.map(({ line, endLine, body, suggestion }) => ({ line, body, ...(endLine !== undefined ? { endLine } : {}), ...(suggestion !== undefined ? { suggestion } : {}) }));
}

import { applySuggestions } from "@/server/review-comments/apply-suggestions";
import { lineCommentProblems, type LineComment } from "@/server/review-comments/line-comment";
import { MAX_FEEDBACK, requestChangesFeedback } from "@/server/review-comments/request-changes-feedback";
import { invalidInput, ServiceError } from "../errors";
import type { DecisionKind } from "./decision-kinds";

export interface DecisionWithComments {
  /** The decision's comment: for reject_with_feedback, the summary followed by every line comment. */
  readonly comment: string;
  /** For edit_and_approve: the reviewer's edit, or the artifact with the suggestions applied. */
  readonly editedContent: string | undefined;
}

/**
 * What the line comments submitted with a decision make of it (a pull request review's three
 * outcomes): "Approve with suggestions" is edit_and_approve whose edit is the artifact with the
 * suggested changes applied; "Request changes" is reject_with_feedback whose feedback lists every
 * comment with its line numbers; any other decision keeps them as remarks. Refused, naming the
 * comment at fault, when a comment does not fit the artifact, when a plain approval would drop a
 * suggested change, or when the feedback would be too long for a prompt.
 */
export function lineCommentsOfDecision(
  decision: DecisionKind,
  content: string,
  input: { readonly comment: string; readonly editedContent: string | undefined; readonly comments: readonly LineComment[] },
): DecisionWithComments {
  const { comments } = input;
  if (comments.length === 0) return { comment: input.comment, editedContent: input.editedContent };
  const problems = lineCommentProblems(content, comments);
  // Each problem already names its comment and field ("comments[2].endLine: ...").
  if (problems.length > 0) throw new ServiceError("INVALID_INPUT", problems.join("; "));
  const suggested = comments.findIndex((comment) => comment.suggestion !== undefined);
  switch (decision) {
    case "approve":
      if (suggested !== -1) throw invalidInput(`comments[${suggested}].suggestion`, "approve accepts the artifact as it is; use Approve with suggestions (edit_and_approve) to apply suggested changes, or remove them");
      return { comment: input.comment, editedContent: undefined };
    case "edit_and_approve": {
      if (suggested === -1) return { comment: input.comment, editedContent: input.editedContent };
      if (input.editedContent !== undefined) throw invalidInput("editedContent", "give either an edited artifact or suggested changes, not both");
      const applied = applySuggestions(content, comments);
      if (!applied.ok) throw new ServiceError("INVALID_INPUT", applied.problem);
      return { comment: input.comment, editedContent: applied.content };
    }
    case "reject_with_feedback": {
      const feedback = requestChangesFeedback(content, input.comment, comments);
      if (feedback.length > MAX_FEEDBACK) throw invalidInput("comments", `the feedback with every line comment has ${feedback.length} characters; the next prompt takes at most ${MAX_FEEDBACK}: shorten the comments`);
      return { comment: feedback, editedContent: undefined };
    }
    case "reject":
      return { comment: input.comment, editedContent: undefined };
    default: {
      const unreachable: never = decision;
      throw new Error(`unknown decision ${String(unreachable)}`);
    }
  }
}

import Link from "next/link";
import type { ReviewerDecision } from "./reviewer-decision";

/** What a person decided on this attempt, and the feedback they gave. */
export function ReviewerNote({ decision }: { decision: ReviewerDecision }) {
  return (
    <div data-testid="attempt-review" className="mt-3 rounded border border-violet-200 bg-violet-50 p-3 text-xs text-slate-800">
      <p>
        <span className="font-medium">Reviewer{decision.decidedBy ? ` ${decision.decidedBy}` : ""}</span> {decision.label} this attempt (
        <Link href={`/escalations/${decision.escalationId}`} className="text-violet-800 underline hover:text-violet-950">
          escalation
        </Link>
        ){decision.comment ? (decision.isFeedback ? "; their feedback, given to the next attempt:" : ":") : "."}
      </p>
      {decision.comment && (
        <p data-testid="attempt-review-comment" className="mt-1 whitespace-pre-wrap break-words font-mono leading-5">
          {decision.comment}
        </p>
      )}
    </div>
  );
}

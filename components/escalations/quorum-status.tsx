import type { RouterOutputs } from "@/server/api/root";

type QuorumView = NonNullable<Extract<RouterOutputs["escalation"]["get"], { kind: "guard" }>["quorum"]>;

/**
 * Where an escalation's quorum stands: "1 of 2 approvals (alice)", each vote, and why the person
 * looking may not approve (they started the run, or voted already). Shown on the review page
 * above the decision; the rules are the store's (server/review-policy/quorum.ts).
 */
export function QuorumStatus({ quorum, pending }: { quorum: QuorumView; pending: boolean }) {
  const needs = [
    `${quorum.approvalsNeeded} approval${quorum.approvalsNeeded === 1 ? "" : "s"} from different reviewers`,
    quorum.rejectionsNeeded === 1 ? "one rejection decides" : `${quorum.rejectionsNeeded} rejections decide`,
    ...(quorum.excludeRunStarter ? ["the person who started the run cannot approve"] : []),
  ];
  return (
    <div className="space-y-2 border-b border-slate-100 px-5 py-4 text-sm" data-testid="quorum-status">
      <p className="font-medium text-slate-900" data-testid="quorum-summary">
        {quorum.summary}
      </p>
      <p className="text-xs text-slate-500">Review policy: {needs.join("; ")}.</p>
      {quorum.votes.length > 0 && (
        <ul className="space-y-1" aria-label="Votes">
          {quorum.votes.map((vote) => (
            <li key={vote.reviewer} data-testid="quorum-vote" className="text-slate-700">
              <span className={vote.vote === "approve" ? "text-emerald-800" : "text-red-800"}>{vote.vote === "approve" ? "approved" : "rejected"}</span> by {vote.reviewer}
              {vote.comment ? <span className="text-slate-500">: {vote.comment}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {pending && (quorum.voteRefusal ?? quorum.approvalRefusal) && (
        <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-amber-900" data-testid="quorum-refusal">
          {quorum.voteRefusal ? `You cannot vote: ${quorum.voteRefusal}.` : `You cannot approve: ${quorum.approvalRefusal}.`}
        </p>
      )}
    </div>
  );
}

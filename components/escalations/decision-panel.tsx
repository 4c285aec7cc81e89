"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { RouterOutputs } from "@/server/api/root";
import { applySuggestions } from "@/server/review-comments/apply-suggestions";
import { describeDecision, type ClosedEscalation } from "./describe-decision";
import { submittedComments } from "./pending-comments";
import type { PendingComments } from "./use-pending-comments";
import type { useNextPending } from "./use-next-pending";

type Review = Extract<RouterOutputs["escalation"]["get"], { kind: "guard" }>;
type Decision = "approve" | "edit_and_approve" | "reject" | "reject_with_feedback";
type NextPending = ReturnType<typeof useNextPending>;

const buttonBase = "rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50";

/**
 * The four decisions. Each names the content hash of the artifact on screen, so a decision made
 * on a stale page is refused rather than applied to something the reviewer did not see.
 * `editRequest` counts the `e` presses: each opens the editor and puts the cursor in it.
 * The reviewer's pending line comments go with whichever decision they make (one submission):
 * with suggested changes, "Approve with suggestions" applies them (an edit and approve); with
 * comments, "Request changes" sends them, line numbers and all, as the next attempt's feedback.
 */
export function DecisionPanel({ review, editRequest, next, pending }: { review: Review; editRequest: number; next: NextPending; pending: PendingComments }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState("");
  const [editClicked, setEditing] = useState(false);
  const editing = editClicked || (editRequest > 0 && review.escalation.editAllowed);
  const [edited, setEdited] = useState(review.artifact.content);
  const editor = useRef<HTMLTextAreaElement>(null);
  const decide = useMutation(
    trpc.escalation.decide.mutationOptions({
      onSuccess: () => pending.clear(),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.escalation.pathKey() }),
    }),
  );
  const comments = pending.comments;
  const suggestions = comments.filter((comment) => comment.suggestion !== undefined).length;
  // Checked here as the server will (overlapping ranges), so the reviewer hears it before deciding.
  const applied = suggestions > 0 ? applySuggestions(review.artifact.content, comments) : null;
  useEffect(() => {
    if (editRequest > 0) editor.current?.focus();
  }, [editRequest]);
  const submit = (decision: Decision) =>
    decide.mutate({
      escalationId: review.escalation.id,
      contentHash: review.artifact.contentHash,
      decision,
      ...(comment.trim() ? { comment: comment.trim() } : {}),
      ...(decision === "edit_and_approve" && editing ? { editedContent: edited } : {}),
      ...(comments.length > 0 ? { comments: submittedComments(comments) } : {}),
    });

  if (decide.data?.status === "pending") {
    // A vote under a quorum: the escalation waits for the others (the status above refreshes).
    return (
      <p role="status" className="px-5 py-4 text-sm font-medium text-slate-900" data-testid="vote-recorded">
        Your vote is recorded: {decide.data.quorum?.summary ?? "more votes are needed"}.
      </p>
    );
  }
  if (decide.data) {
    return <Outcome closed={decide.data} runId={decide.data.runId} next={next} />;
  }
  // Under a quorum the page says why (quorum-status.tsx); the buttons it refuses are disabled.
  const mayVote = !review.quorum?.voteRefusal;
  const mayApprove = mayVote && !review.quorum?.approvalRefusal;
  // An edit is one person's decision: refused when several must approve (server/review-policy/quorum.ts).
  const mayEdit = mayApprove && (review.quorum?.approvalsNeeded ?? 1) === 1;

  return (
    <div className="space-y-3 px-5 py-4">
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        Comment
        <textarea
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          rows={3}
          placeholder="Why you decide this; with Reject with feedback (Request changes) it becomes the feedback of the next attempt, followed by your line comments"
          className="rounded-md border border-slate-300 px-2 py-1.5 text-sm font-normal"
        />
      </label>
      {editing && (
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Edited artifact
          <textarea
            ref={editor}
            value={edited}
            onChange={(event) => setEdited(event.target.value)}
            rows={Math.min(20, Math.max(8, edited.split("\n").length + 1))}
            spellCheck={false}
            className="rounded-md border border-slate-300 px-2 py-1.5 font-mono text-xs font-normal"
          />
          <span className="text-xs font-normal text-slate-500">Stored as a new artifact whose parent is the escalated one; the step&apos;s guards check it before the run moves on.</span>
        </label>
      )}
      {comments.length > 0 && (
        <p data-testid="pending-comment-count" className="text-sm text-slate-700">
          {comments.length === 1 ? "1 line comment goes" : `${comments.length} line comments go`} with your decision
          {suggestions > 0 ? `, ${suggestions === 1 ? "1 suggests" : `${suggestions} suggest`} a change` : ""}.
        </p>
      )}
      {applied && !applied.ok && (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          The suggestions cannot be applied: {applied.problem}
        </p>
      )}
      {decide.error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {decide.error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {suggestions > 0 && review.escalation.editAllowed && (
          <button type="button" disabled={decide.isPending || editing || applied?.ok === false || !mayEdit} title={mayEdit ? undefined : "Several reviewers must approve this escalation: suggestions cannot be applied under a quorum"} onClick={() => submit("edit_and_approve")} className={`${buttonBase} bg-emerald-700 text-white hover:bg-emerald-800`}>
            Approve with suggestions ({suggestions})
          </button>
        )}
        <button
          type="button"
          disabled={decide.isPending || suggestions > 0 || !mayApprove}
          title={suggestions > 0 ? "Your suggestions change the artifact: approve with suggestions, or remove them" : (review.quorum?.approvalRefusal ?? undefined)}
          onClick={() => submit("approve")}
          className={`${buttonBase} bg-emerald-700 text-white hover:bg-emerald-800`}
        >
          Approve
        </button>
        {review.escalation.editAllowed &&
          (editing ? (
            <button type="button" disabled={decide.isPending || !mayEdit} onClick={() => submit("edit_and_approve")} className={`${buttonBase} border border-emerald-700 text-emerald-800 hover:bg-emerald-50`}>
              Edit and approve
            </button>
          ) : (
            <button type="button" disabled={!mayEdit} title={mayEdit ? undefined : "Several reviewers must approve this escalation: approve it as it is, or reject with feedback"} onClick={() => setEditing(true)} className={`${buttonBase} border border-emerald-700 text-emerald-800 hover:bg-emerald-50`}>
              Edit and approve
            </button>
          ))}
        <button type="button" disabled={decide.isPending || !mayVote} onClick={() => submit("reject")} className={`${buttonBase} bg-red-700 text-white hover:bg-red-800`}>
          Reject
        </button>
        <button type="button" disabled={decide.isPending || !mayVote} onClick={() => submit("reject_with_feedback")} className={`${buttonBase} border border-red-700 text-red-800 hover:bg-red-50`}>
          {comments.length > 0 ? `Request changes (${comments.length})` : "Reject with feedback"}
        </button>
      </div>
      {editing && <p className="text-xs text-slate-500">Edit the artifact here, then press Edit and approve again to submit it.</p>}
    </div>
  );
}

/** A closed escalation: who decided what and when, or why no one did. */
export function DecisionSummary({ review, next }: { review: Review; next: NextPending }) {
  return <Outcome closed={review.escalation} runId={review.run.id} next={next} />;
}

function Outcome({ closed, runId, next }: { closed: ClosedEscalation; runId: string; next: NextPending }) {
  const nextButton = useRef<HTMLButtonElement>(null);
  // Decided: Enter (or n) goes on to the next escalation.
  useEffect(() => nextButton.current?.focus(), []);
  return (
    <div role="status" className="space-y-3 px-5 py-4 text-sm" data-testid="decision-outcome">
      <p className="whitespace-pre-wrap font-medium text-slate-900">{describeDecision(closed)}</p>
      <div className="flex flex-wrap items-center gap-3">
        <button ref={nextButton} type="button" onClick={next.goNext} disabled={next.busy} className={`${buttonBase} bg-slate-900 text-white hover:bg-slate-700`}>
          Next pending
        </button>
        <Link href={`/runs/${runId}`} className="font-medium text-sky-700 hover:underline">
          Watch the run
        </Link>
      </div>
      {next.message && <p className="text-slate-600">{next.message}</p>}
    </div>
  );
}

"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { RouterOutputs } from "@/server/api/root";

type Review = RouterOutputs["escalation"]["get"];
type Decision = "approve" | "edit_and_approve" | "reject" | "reject_with_feedback";

const buttonBase = "rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50";

/**
 * The four decisions. Each names the content hash of the artifact on screen, so a decision made
 * on a stale page is refused rather than applied to something the reviewer did not see.
 */
export function DecisionPanel({ review }: { review: Review }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState("");
  const [editing, setEditing] = useState(false);
  const [edited, setEdited] = useState(review.artifact.content);
  const decide = useMutation(
    trpc.escalation.decide.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.escalation.pathKey() }),
    }),
  );
  const submit = (decision: Decision) =>
    decide.mutate({
      escalationId: review.escalation.id,
      contentHash: review.artifact.contentHash,
      decision,
      ...(comment.trim() ? { comment: comment.trim() } : {}),
      ...(decision === "edit_and_approve" ? { editedContent: edited } : {}),
    });

  if (decide.data) {
    return <Outcome status={decide.data.status} decision={decide.data.decision} decidedBy={decide.data.decidedBy} comment={comment.trim() || null} runId={decide.data.runId} />;
  }

  return (
    <div className="space-y-3 px-5 py-4">
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        Comment
        <textarea
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          rows={3}
          placeholder="Why you decide this; with Reject with feedback it becomes the guard feedback of the next attempt"
          className="rounded-md border border-slate-300 px-2 py-1.5 text-sm font-normal"
        />
      </label>
      {editing && (
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Edited artifact
          <textarea
            value={edited}
            onChange={(event) => setEdited(event.target.value)}
            rows={Math.min(30, Math.max(8, edited.split("\n").length + 1))}
            spellCheck={false}
            className="rounded-md border border-slate-300 px-2 py-1.5 font-mono text-xs font-normal"
          />
          <span className="text-xs font-normal text-slate-500">Stored as a new artifact whose parent is the escalated one; the step&apos;s guards check it before the run moves on.</span>
        </label>
      )}
      {decide.error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {decide.error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" disabled={decide.isPending} onClick={() => submit("approve")} className={`${buttonBase} bg-emerald-700 text-white hover:bg-emerald-800`}>
          Approve
        </button>
        {review.escalation.editAllowed &&
          (editing ? (
            <button type="button" disabled={decide.isPending} onClick={() => submit("edit_and_approve")} className={`${buttonBase} border border-emerald-700 text-emerald-800 hover:bg-emerald-50`}>
              Edit and approve
            </button>
          ) : (
            <button type="button" onClick={() => setEditing(true)} className={`${buttonBase} border border-emerald-700 text-emerald-800 hover:bg-emerald-50`}>
              Edit and approve
            </button>
          ))}
        <button type="button" disabled={decide.isPending} onClick={() => submit("reject")} className={`${buttonBase} bg-red-700 text-white hover:bg-red-800`}>
          Reject
        </button>
        <button type="button" disabled={decide.isPending} onClick={() => submit("reject_with_feedback")} className={`${buttonBase} border border-red-700 text-red-800 hover:bg-red-50`}>
          Reject with feedback
        </button>
      </div>
      {editing && <p className="text-xs text-slate-500">Edit the artifact above, then press Edit and approve again to submit it.</p>}
    </div>
  );
}

/** A closed escalation: what was decided, by whom, or why no one did. */
export function DecisionSummary({ review }: { review: Review }) {
  const { escalation } = review;
  if (!escalation.decision || !escalation.decidedBy) {
    return (
      <p role="status" className="px-5 py-4 text-sm text-slate-700" data-testid="decision-outcome">
        This escalation is {escalation.status}
        {escalation.comment ? `: ${escalation.comment}` : "."}
      </p>
    );
  }
  return <Outcome status={escalation.status} decision={escalation.decision} decidedBy={escalation.decidedBy} comment={escalation.comment} runId={review.run.id} />;
}

function Outcome({ status, decision, decidedBy, comment, runId }: { status: string; decision: string; decidedBy: string; comment: string | null; runId: string }) {
  return (
    <div role="status" className="space-y-2 px-5 py-4 text-sm" data-testid="decision-outcome">
      <p className="font-medium text-slate-900">
        {status === "approved" ? "Approved" : "Rejected"} ({decision.replaceAll("_", " ")}) by {decidedBy}.
      </p>
      {comment && <p className="whitespace-pre-wrap text-slate-700">{comment}</p>}
      <Link href={`/runs/${runId}`} className="font-medium text-sky-700 hover:underline">
        Watch the run
      </Link>
    </div>
  );
}

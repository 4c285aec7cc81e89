"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { usePermission, useSignedInUser } from "@/components/auth/signed-in-user";
import { SectionCard } from "@/components/dashboard/section-card";
import { AddToDatasetButton } from "@/components/datasets/add-to-dataset-button";
import { useTRPC } from "@/components/providers/trpc-provider";
import { CodeBlock } from "@/components/runs/code-block";
import { StateMachineGraph } from "@/components/state-machine/state-machine-graph";
import type { RouterOutputs } from "@/server/api/root";
import { BudgetEscalationReview } from "./budget-escalation-review";
import { UsageSummary } from "@/components/usage/usage-summary";
import { ClaimControl } from "./claim-control";
import { CommentableCode } from "./commentable-code";
import { DecisionDialog, type QuickDecision } from "./decision-dialog";
import { DecisionPanel, DecisionSummary } from "./decision-panel";
import { DiffView } from "./diff-view";
import { EscalationHeader } from "./escalation-header";
import { EscalationReachNote } from "./escalation-reach";
import { QuorumStatus } from "./quorum-status";
import { ShortcutHelp } from "./shortcut-help";
import { useNextPending } from "./use-next-pending";
import { submittedComments } from "./pending-comments";
import { usePendingComments } from "./use-pending-comments";
import { useReviewShortcuts } from "./use-review-shortcuts";

/** Another reviewer may decide while this page is open; the page should say so soon. */
const REFRESH_MS = 3_000;

type GuardReview = Extract<RouterOutputs["escalation"]["get"], { kind: "guard" }>;

/** Everything needed to decide one escalation, on one screen: an attempt a guard escalated, or a run that reached its budget. */
export function EscalationReview({ escalationId }: { escalationId: string }) {
  const trpc = useTRPC();
  const { data: review } = useSuspenseQuery({ ...trpc.escalation.get.queryOptions({ id: escalationId }), refetchInterval: REFRESH_MS });
  return review.kind === "budget" ? <BudgetEscalationReview review={review} /> : <GuardEscalationReview review={review} />;
}

function GuardEscalationReview({ review }: { review: GuardReview }) {
  const trpc = useTRPC();
  const run = useQuery(trpc.run.get.queryOptions({ id: review.run.id }));
  const { escalation, artifact } = review;
  const queryClient = useQueryClient();
  const me = useSignedInUser()?.email ?? null;
  const mayClaim = usePermission("claim_escalation").allowed && review.decideRefusal === null && escalation.status === "pending" && escalation.claimedBy !== me;
  const next = useNextPending(escalation.id);
  const [quick, setQuick] = useState<QuickDecision | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [editRequest, setEditRequest] = useState(0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.escalation.pathKey() });
  const claim = useMutation(trpc.escalation.claim.mutationOptions({ onSettled: refresh }));
  // Line comments drafted on this artifact, submitted with whichever decision comes (the panel's or a quick one).
  const pending = usePendingComments(escalation.id, artifact.contentHash, escalation.status === "pending");
  const mayComment = review.canDecide && escalation.status === "pending";
  const decide = useMutation(
    trpc.escalation.decide.mutationOptions({
      onSuccess: () => {
        setQuick(null);
        pending.clear();
      },
      onSettled: refresh,
    }),
  );
  const openDecision = (decision: QuickDecision) => {
    decide.reset();
    setQuick(decision);
  };
  useReviewShortcuts({ mayDecide: review.canDecide, editAllowed: escalation.editAllowed, mayClaim, dialogOpen: quick !== null || helpOpen }, (command) => {
    if (command === "approve" || command === "reject") openDecision(command);
    else if (command === "edit") setEditRequest((count) => count + 1);
    else if (command === "next") next.goNext();
    else if (command === "claim") claim.mutate({ escalationId: escalation.id });
    else setHelpOpen(true);
  });
  return (
    <div className="space-y-6 pb-20 lg:pb-0" data-testid="escalation-review" data-escalation-id={escalation.id} data-status={escalation.status}>
      <EscalationHeader
        escalation={escalation}
        workflow={review.run.workflow}
        title={`${escalation.stepName}: ${escalation.guardId}`}
        below={
          <>
            {(next.message ?? claim.error?.message) && (
              <p role="status" className="text-sm text-slate-700">
                {next.message ?? claim.error?.message}
              </p>
            )}
            {(escalation.status === "approved" || escalation.status === "rejected") && <AddToDatasetButton source={{ kind: "escalation", escalationId: escalation.id, comment: escalation.comment }} />}
          </>
        }
      >
        <EscalationReachNote reach={escalation.reach} />
        <span>
          Run so far <UsageSummary totals={review.run} testId="escalation-run-usage" />
        </span>
        <ClaimControl escalationId={escalation.id} claimedBy={escalation.claimedBy} pending={escalation.status === "pending"} refusal={review.decideRefusal} />
        <Link href={`/runs/${review.run.id}`} className="font-medium text-sky-700 hover:underline">
          Run ({review.run.status})
        </Link>
        <Link href={`/runs/${review.run.id}/provenance`} className="font-medium text-sky-700 hover:underline">
          Full provenance
        </Link>
        <button type="button" onClick={next.goNext} disabled={next.busy} className="font-medium text-sky-700 hover:underline disabled:opacity-50">
          Next pending
        </button>
        <button type="button" onClick={() => setHelpOpen(true)} className="font-medium text-slate-600 hover:underline" aria-keyshortcuts="?">
          Keyboard shortcuts <kbd className="rounded border border-slate-300 px-1 font-mono text-xs">?</kbd>
        </button>
      </EscalationHeader>

      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <SectionCard id="feedback" title="Fatal feedback">
            <div className="space-y-2 px-5 py-4">
              <p data-testid="fatal-feedback" className="whitespace-pre-wrap rounded-md bg-red-50 px-3 py-2 font-mono text-sm text-red-900">
                {escalation.feedback}
              </p>
              {review.offendingLine !== null && <p className="text-xs text-slate-600">The offending line, {review.offendingLine}, is marked in the artifact.</p>}
            </div>
          </SectionCard>
          <SectionCard id="artifact" title={`Escalated artifact (attempt ${artifact.attempt})`}>
            <div className="space-y-2 px-5 py-4">
              <CommentableCode code={artifact.content} language={artifact.language} markedLine={review.offendingLine} label="Escalated artifact" pending={mayComment ? pending : null} submitted={review.comments} />
              {mayComment && <p className="text-xs text-slate-500">Press + beside a line to comment on it (Shift+click another line&apos;s + for a range) or to suggest a change; your comments go with your decision.</p>}
              <p className="break-all font-mono text-xs text-slate-500" data-testid="content-hash">
                sha256 {artifact.contentHash}
              </p>
            </div>
          </SectionCard>
          <SectionCard id="earlier-attempts" title={`Earlier attempts (${review.earlierAttempts.length})`}>
            <div className="space-y-4 px-5 py-4">
              {review.earlierAttempts.length === 0 && <p className="text-sm text-slate-500">This was the step&apos;s first attempt.</p>}
              {review.earlierAttempts.map((earlier) => (
                <details key={earlier.id} className="space-y-2" data-testid="earlier-attempt">
                  <summary className="cursor-pointer text-sm font-medium text-slate-800">
                    Attempt {earlier.attempt}: {earlier.passed ? "passed" : earlier.fatal ? "fatal" : "failed"}
                    {earlier.feedback && <span className="font-normal text-slate-600"> · {earlier.feedback.split("\n")[0]}</span>}
                  </summary>
                  <DiffView lines={earlier.diff} label={`Diff from attempt ${earlier.attempt} to the escalated artifact`} />
                </details>
              ))}
            </div>
          </SectionCard>
          <SectionCard id="dependencies" title={`Dependencies (${review.dependencies.length})`}>
            <div className="space-y-4 px-5 py-4">
              {review.dependencies.length === 0 && <p className="text-sm text-slate-500">The guards checked this artifact on its own.</p>}
              {review.dependencies.map((dependency) => (
                <div key={dependency.artifact.id} className="space-y-1">
                  <h3 className="text-sm font-medium text-slate-800">
                    {dependency.name} <span className="font-normal text-slate-500">from {dependency.stepName}, attempt {dependency.artifact.attempt}</span>
                  </h3>
                  <CodeBlock code={dependency.artifact.content} language={dependency.artifact.language} label={`Dependency ${dependency.name}`} />
                </div>
              ))}
            </div>
          </SectionCard>
        </div>

        <div className="space-y-6 lg:col-span-2">
          {/* Stays in view while the artifact scrolls (on phones the bar at the bottom does). */}
          <div className="lg:sticky lg:top-4 lg:z-10 space-y-6 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto" data-testid="decision-rail">
            <SectionCard id="decision" title="Decision">
              {review.quorum && <QuorumStatus quorum={review.quorum} pending={escalation.status === "pending"} />}
              {escalation.status !== "pending" ? (
                <DecisionSummary review={review} next={next} />
              ) : review.canDecide ? (
                <DecisionPanel key={artifact.contentHash} review={review} editRequest={editRequest} next={next} pending={pending} />
              ) : (
                <p className="px-5 py-4 text-sm text-slate-600" data-testid="no-decision">
                  {review.decideRefusal ? `You can read this escalation; you cannot decide it: ${review.decideRefusal}.` : "You can read this escalation; deciding it needs the reviewer or admin role."}
                </p>
              )}
            </SectionCard>
            <SectionCard id="specification" title="Specification">
              <p className="whitespace-pre-wrap break-words px-5 py-4 text-sm leading-6 text-slate-700">{review.run.specification}</p>
            </SectionCard>
          </div>
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <SectionCard id="prompt" title="Prompt as sent">
            <div className="px-5 py-4">
              {review.prompt ? (
                <pre data-testid="prompt" className="max-h-96 overflow-auto whitespace-pre-wrap rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800">
                  {review.prompt}
                </pre>
              ) : (
                <p className="text-sm text-slate-500">No prompt was recorded for this attempt.</p>
              )}
            </div>
          </SectionCard>
        </div>
        <div className="space-y-6">
          <SectionCard id="state-machine" title="State machine">
            <div className="p-3">
              {run.data?.machine ? (
                <StateMachineGraph machine={run.data.machine} height={300} />
              ) : (
                <p className="px-2 py-2 text-sm text-slate-500">
                  {run.data ? "This run's workflow version has no state machine to draw." : run.error ? `Could not load the run's state machine: ${run.error.message}` : "Loading…"}
                </p>
              )}
              {review.run.currentState && <p className="px-2 pt-2 text-xs text-slate-600">Current state: {review.run.currentState}</p>}
            </div>
          </SectionCard>
        </div>
      </div>

      {review.canDecide && <DecisionBar onDecide={openDecision} onNext={next.goNext} />}
      {quick && (
        <DecisionDialog
          decision={quick}
          subject={`${escalation.stepName} (attempt ${artifact.attempt})`}
          pending={decide.isPending}
          error={decide.error?.message ?? null}
          note={pending.comments.length > 0 ? `Your ${pending.comments.length === 1 ? "line comment goes" : `${pending.comments.length} line comments go`} with this decision.` : null}
          onCancel={() => setQuick(null)}
          onConfirm={(comment) =>
            decide.mutate({
              escalationId: escalation.id,
              contentHash: artifact.contentHash,
              decision: quick,
              ...(comment.trim() ? { comment: comment.trim() } : {}),
              ...(pending.comments.length > 0 ? { comments: submittedComments(pending.comments) } : {}),
            })
          }
        />
      )}
      {helpOpen && <ShortcutHelp onClose={() => setHelpOpen(false)} />}
    </div>
  );
}

/** On phones the decision panel is far down the page: Approve, Reject and Next stay at the bottom. */
function DecisionBar({ onDecide, onNext }: { onDecide: (decision: QuickDecision) => void; onNext: () => void }) {
  return (
    <div className="fixed inset-x-0 bottom-0 z-10 flex gap-2 border-t border-slate-200 bg-white px-4 py-3 shadow-lg lg:hidden" data-testid="decision-bar">
      <button type="button" onClick={() => onDecide("approve")} className="flex-1 rounded-md bg-emerald-700 px-3 py-2 text-sm font-medium text-white">
        Approve…
      </button>
      <button type="button" onClick={() => onDecide("reject")} className="flex-1 rounded-md bg-red-700 px-3 py-2 text-sm font-medium text-white">
        Reject…
      </button>
      <button type="button" onClick={onNext} className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium">
        Next
      </button>
    </div>
  );
}

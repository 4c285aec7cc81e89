"use client";

import Link from "next/link";
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { SectionCard } from "@/components/dashboard/section-card";
import { useTRPC } from "@/components/providers/trpc-provider";
import { CodeBlock } from "@/components/runs/code-block";
import { StateMachineGraph } from "@/components/state-machine/state-machine-graph";
import { RelativeTime } from "@/components/ui/relative-time";
import { DecisionPanel, DecisionSummary } from "./decision-panel";
import { DiffView } from "./diff-view";
import { TimeLeft } from "./time-left";

/** Another reviewer may decide while this page is open; the page should say so soon. */
const REFRESH_MS = 3_000;

/** Everything needed to decide one escalation, on one screen. */
export function EscalationReview({ escalationId }: { escalationId: string }) {
  const trpc = useTRPC();
  const { data: review } = useSuspenseQuery({ ...trpc.escalation.get.queryOptions({ id: escalationId }), refetchInterval: REFRESH_MS });
  const run = useQuery(trpc.run.get.queryOptions({ id: review.run.id }));
  const { escalation, artifact } = review;
  return (
    <div className="space-y-6" data-testid="escalation-review" data-escalation-id={escalation.id} data-status={escalation.status}>
      <header className="space-y-1">
        <p className="text-sm text-slate-500">
          <Link href="/escalations" className="hover:underline">
            Escalations
          </Link>{" "}
          / {review.run.workflow ?? "unknown workflow"}
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
          {escalation.stepName}: {escalation.guardId}
        </h1>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
          <span data-testid="escalation-status">
            Status <strong>{escalation.status}</strong>
            {escalation.decidedBy && (
              <>
                {" "}
                by {escalation.decidedBy} ({escalation.decision?.replaceAll("_", " ")})
              </>
            )}
          </span>
          <span>
            Raised <RelativeTime date={escalation.createdAt} />
          </span>
          {escalation.status === "pending" && (
            <span>
              Deadline <TimeLeft expiresAt={escalation.expiresAt} />
            </span>
          )}
          <span>Claimed by {escalation.claimedBy ?? "nobody"}</span>
          <Link href={`/runs/${review.run.id}`} className="font-medium text-sky-700 hover:underline">
            Run ({review.run.status})
          </Link>
          <Link href={`/runs/${review.run.id}/provenance`} className="font-medium text-sky-700 hover:underline">
            Full provenance
          </Link>
        </p>
      </header>

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
              <CodeBlock code={artifact.content} language={artifact.language} markedLine={review.offendingLine} label="Escalated artifact" />
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
          <SectionCard id="decision" title="Decision">
            {escalation.status !== "pending" ? (
              <DecisionSummary review={review} />
            ) : review.canDecide ? (
              <DecisionPanel key={artifact.contentHash} review={review} />
            ) : (
              <p className="px-5 py-4 text-sm text-slate-600" data-testid="no-decision">
                You can read this escalation; deciding it needs the reviewer or admin role.
              </p>
            )}
          </SectionCard>
          <SectionCard id="specification" title="Specification">
            <p className="whitespace-pre-wrap break-words px-5 py-4 text-sm leading-6 text-slate-700">{review.run.specification}</p>
          </SectionCard>
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
    </div>
  );
}

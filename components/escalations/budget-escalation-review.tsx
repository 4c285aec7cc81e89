"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { SectionCard } from "@/components/dashboard/section-card";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import type { RouterOutputs } from "@/server/api/root";
import { formatTokens, formatUsd } from "@/server/usage/format-usage";
import { describeDecision } from "./describe-decision";
import { EscalationHeader } from "./escalation-header";

type BudgetReview = Extract<RouterOutputs["escalation"]["get"], { kind: "budget" }>;

/** A run that reached its budget: what it spent against each limit, and the grant or refusal that decides it. */
export function BudgetEscalationReview({ review }: { review: BudgetReview }) {
  const { escalation, budget } = review;
  return (
    <div className="space-y-6" data-testid="escalation-review" data-kind="budget" data-escalation-id={escalation.id} data-status={escalation.status}>
      <EscalationHeader escalation={escalation} workflow={review.run.workflow} title={`Budget reached before a model call of ${escalation.stepName}`}>
        <Link href={`/runs/${review.run.id}`} className="font-medium text-sky-700 hover:underline">
          Run ({review.run.status})
        </Link>
      </EscalationHeader>
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <SectionCard id="budget" title="Spent against the budget">
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 px-5 py-4 text-sm" data-testid="budget-spent">
              <dt className="text-slate-500">Tokens</dt>
              <dd className="font-mono" data-testid="budget-tokens">
                {formatTokens(budget.spentTokens)}
                {budget.tokenLimit !== null && ` of ${formatTokens(budget.tokenLimit)}`}
              </dd>
              <dt className="text-slate-500">Cost</dt>
              <dd className="font-mono" data-testid="budget-usd">
                {formatUsd(budget.spentUsd)}
                {budget.usdLimit !== null && ` of ${formatUsd(budget.usdLimit)}`}
              </dd>
              <dt className="text-slate-500">Grants so far</dt>
              <dd>{budget.grants.length === 0 ? "none" : budget.grants.map((grant) => `${grantText(grant)} by ${grant.by}`).join("; ")}</dd>
            </dl>
            <p className="border-t border-slate-100 px-5 py-3 text-sm text-slate-600">{escalation.feedback}</p>
          </SectionCard>
          <SectionCard id="specification" title="Specification">
            <p className="whitespace-pre-wrap break-words px-5 py-4 text-sm leading-6 text-slate-700">{review.run.specification}</p>
          </SectionCard>
        </div>
        <div className="lg:col-span-2">
          <SectionCard id="decision" title="Decision">
            {escalation.status !== "pending" ? (
              <p role="status" className="px-5 py-4 text-sm font-medium text-slate-900" data-testid="decision-outcome">
                {describeDecision(escalation)}
              </p>
            ) : review.canDecide ? (
              <GrantForm review={review} />
            ) : (
              <p className="px-5 py-4 text-sm text-slate-600" data-testid="no-decision">
                {review.decideRefusal ? `You can read this escalation; you cannot decide it: ${review.decideRefusal}.` : "You can read this escalation; deciding it needs the reviewer or admin role."}
              </p>
            )}
          </SectionCard>
        </div>
      </div>
    </div>
  );
}

function grantText(grant: { tokens: number; usd: number }): string {
  return [grant.tokens > 0 ? `${formatTokens(grant.tokens)} tokens` : "", grant.usd > 0 ? formatUsd(grant.usd) : ""].filter(Boolean).join(" and ");
}

/** Grant adds the amounts to the run's limits and resumes it; Refuse resumes it to fail. */
function GrantForm({ review }: { review: BudgetReview }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { budget } = review;
  const [tokens, setTokens] = useState(budget.tokenLimit !== null ? String(budget.tokenLimit) : "");
  const [usd, setUsd] = useState(budget.usdLimit !== null ? String(budget.usdLimit) : "");
  const [comment, setComment] = useState("");
  const decide = useMutation(trpc.budget.decide.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.escalation.pathKey() }) }));
  const amount = (text: string) => (text.trim() === "" ? undefined : Number(text));
  const grant = () =>
    decide.mutate({
      escalationId: review.escalation.id,
      grant: { ...(budget.tokenLimit !== null ? { tokens: amount(tokens) } : {}), ...(budget.usdLimit !== null ? { usd: amount(usd) } : {}) },
      ...(comment.trim() ? { comment: comment.trim() } : {}),
    });
  const refuse = () => decide.mutate({ escalationId: review.escalation.id, ...(comment.trim() ? { comment: comment.trim() } : {}) });
  return (
    <form
      className="space-y-3 px-5 py-4 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        grant();
      }}
    >
      {budget.tokenLimit !== null && (
        <label className="block space-y-1">
          <span className="font-medium text-slate-800">More tokens</span>
          <input name="tokens" inputMode="numeric" value={tokens} onChange={(event) => setTokens(event.target.value)} className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono" />
        </label>
      )}
      {budget.usdLimit !== null && (
        <label className="block space-y-1">
          <span className="font-medium text-slate-800">More US dollars</span>
          <input name="usd" inputMode="decimal" value={usd} onChange={(event) => setUsd(event.target.value)} className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono" />
        </label>
      )}
      <label className="block space-y-1">
        <span className="font-medium text-slate-800">Comment (optional)</span>
        <textarea name="comment" rows={2} value={comment} onChange={(event) => setComment(event.target.value)} className="w-full rounded-md border border-slate-300 px-2 py-1" />
      </label>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="primary" disabled={decide.isPending}>
          Grant and resume
        </Button>
        <Button variant="secondary" onClick={refuse} disabled={decide.isPending}>
          Refuse (the run fails)
        </Button>
      </div>
      {decide.error && (
        <p role="alert" className="text-red-700" data-testid="grant-error">
          {decide.error.message}
        </p>
      )}
    </form>
  );
}

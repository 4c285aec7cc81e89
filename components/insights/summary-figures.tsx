import { formatTokensCompact, formatUsd } from "@/server/usage/format-usage";
import { countOf, formatPercent, formatWait } from "./insights-format";
import type { Insights } from "./types";

function Figure({ testId, label, value, detail }: { testId: string; label: string; value: string; detail: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </dd>
      <dd className="mt-0.5 text-xs text-slate-500">{detail}</dd>
    </div>
  );
}

/** The window's headline numbers, above the charts. */
export function SummaryFigures({ insights }: { insights: Insights }) {
  const { runs, escalations, cost } = insights;
  const decisions = escalations.timeToDecision;
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
      <Figure testId="metric-runs" label="Runs" value={String(runs.total)} detail={`${runs.byStatus.succeeded} succeeded, ${runs.byStatus.failed} failed`} />
      <Figure testId="metric-escalation-rate" label="Escalation rate" value={formatPercent(insights.escalationRate)} detail={`${countOf(escalations.escalatedRuns, "run")}, ${countOf(escalations.escalations, "escalation")} (${escalations.byStatus.pending} pending)`} />
      <Figure testId="metric-decision-p50" label="Time to decision p50" value={formatWait(decisions.p50Ms)} detail={`from ${decisions.truncated ? "the newest " : ""}${countOf(decisions.sample, "decision")}`} />
      <Figure testId="metric-decision-p95" label="Time to decision p95" value={formatWait(decisions.p95Ms)} detail="95% of decisions took at most this long" />
      <Figure testId="metric-cost" label="Cost" value={formatUsd(cost.costUsd)} detail={`${formatTokensCompact(cost.promptTokens)} tokens in, ${formatTokensCompact(cost.completionTokens)} out`} />
    </dl>
  );
}

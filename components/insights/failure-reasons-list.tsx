import Link from "next/link";
import { ChartCard } from "./chart-card";
import type { Insights } from "./types";

/**
 * Long sentences do not fit a chart's axis on a phone, so the reasons are a list whose bars
 * (plain elements, widths relative to the most frequent reason) sit under each sentence.
 */
export function FailureReasonsList({ insights }: { insights: Insights }) {
  const { reasons, sample, truncated } = insights.guardFailures;
  const most = reasons[0]?.count ?? 1;
  return (
    <ChartCard
      id="chart-failure-reasons"
      title="Most frequent guard failures"
      note={`Failed guard verdicts of these runs, grouped by guard and first line of feedback${truncated ? ` (the newest ${sample})` : ""}.`}
    >
      {reasons.length === 0 ? (
        <p className="py-6 text-sm text-slate-500">No guard failed in this window.</p>
      ) : (
        <ol className="space-y-3" aria-label="Guard failure reasons">
          {reasons.map((reason) => (
            <li key={`${reason.guardId}\u0000${reason.reason}`} data-testid="failure-reason" data-guard={reason.guardId} data-count={reason.count} className="text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <p className="min-w-0 break-words text-slate-800">
                  <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600">{reason.guardId || "no guard"}</span>
                  {reason.reason}
                </p>
                <span className="shrink-0 tabular-nums font-semibold text-slate-900" title={reason.fatalCount > 0 ? `${reason.fatalCount} of them fatal` : undefined}>
                  {reason.count}
                </span>
              </div>
              <div className="mt-1 h-1.5 rounded bg-slate-100" aria-hidden="true">
                <div className="h-1.5 rounded bg-rose-400" style={{ width: `${Math.max(2, (reason.count / most) * 100)}%` }} />
              </div>
              <p className="mt-0.5 text-xs text-slate-500">
                in {reason.steps.join(", ")}
                {reason.fatalCount > 0 ? ` · ${reason.fatalCount} fatal` : ""} ·{" "}
                <Link href={`/runs/${reason.exampleRunId}`} className="hover:underline">
                  latest run
                </Link>
              </p>
            </li>
          ))}
        </ol>
      )}
    </ChartCard>
  );
}

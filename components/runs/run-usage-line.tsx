import { UsageSummary } from "@/components/usage/usage-summary";
import { formatTokens, formatUsd } from "@/server/usage/format-usage";
import type { RunDetail } from "./types";

/** What the run's model calls used and cost so far, and its budget when it has one. */
export function RunUsageLine({ run }: { run: RunDetail }) {
  const { usage } = run;
  const budget = usage.budget;
  const limits = budget
    ? [budget.tokenLimit !== null ? `${formatTokens(budget.tokenLimit)} tokens` : "", budget.usdLimit !== null ? formatUsd(budget.usdLimit) : ""].filter(Boolean).join(" and ")
    : null;
  return (
    <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600" data-testid="run-usage">
      <span>
        Used <UsageSummary totals={usage} testId="run-cost" />
      </span>
      {budget && (
        <span className="text-xs text-slate-500" data-testid="run-budget">
          budget {limits} ({budget.onExceed === "fail" ? "fails the run" : "asks a person for more"} when reached)
          {budget.grants.length > 0 && `, raised ${budget.grants.length} time${budget.grants.length === 1 ? "" : "s"}`}
        </span>
      )}
    </p>
  );
}

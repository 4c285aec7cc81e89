"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Select } from "@/components/ui/select";
import { INSIGHT_RANGES, type InsightRange } from "@/server/services/insights/time-window";
import { CostPerWorkflowChart } from "./cost-per-workflow-chart";
import { EscalationRateChart } from "./escalation-rate-chart";
import { FailureReasonsList } from "./failure-reasons-list";
import { RunsByStatusChart } from "./runs-by-status-chart";
import { SummaryFigures } from "./summary-figures";

const RANGE_LABELS: Record<InsightRange, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days" };
const DEFAULT_RANGE: InsightRange = "7d";

function isRange(value: string | null): value is InsightRange {
  return (INSIGHT_RANGES as readonly (string | null)[]).includes(value);
}

/** The Metrics page: a range and a workflow (both kept in the URL), headline numbers and four charts. */
export function InsightsDashboard() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // The filters live in state, and the address follows them: two changes in quick succession
  // both stay (router.replace reaches the address, and useSearchParams, only after a render).
  const [filters, setFilters] = useState(() => {
    const rangeParam = params.get("range");
    return { range: isRange(rangeParam) ? rangeParam : DEFAULT_RANGE, workflowId: params.get("workflow") ?? "" };
  });
  const { range, workflowId } = filters;
  const update = (changes: Partial<typeof filters>) => setFilters((current) => ({ ...current, ...changes }));
  useEffect(() => {
    const next = new URLSearchParams(window.location.search);
    if (range === DEFAULT_RANGE) next.delete("range");
    else next.set("range", range);
    if (workflowId) next.set("workflow", workflowId);
    else next.delete("workflow");
    if (next.toString() !== window.location.search.replace(/^\?/, "")) router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  }, [range, workflowId, pathname, router]);

  const workflows = useQuery(trpc.workflow.list.queryOptions({ includeArchived: true }));
  const insights = useQuery(trpc.insights.get.queryOptions({ range, ...(workflowId ? { workflowId } : {}) }, { refetchInterval: 10_000, placeholderData: keepPreviousData }));
  const data = insights.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Choose the metrics' window">
        <fieldset className="flex flex-col gap-1 text-sm font-medium">
          <legend className="mb-1">Time range</legend>
          <div className="inline-flex rounded-md border border-slate-300 bg-white p-0.5" role="radiogroup" aria-label="Time range">
            {INSIGHT_RANGES.map((option) => (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={option === range}
                onClick={() => update({ range: option })}
                className={`rounded px-3 py-1 text-sm ${option === range ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {RANGE_LABELS[option]}
              </button>
            ))}
          </div>
        </fieldset>
        <Select
          label="Workflow"
          value={workflowId}
          onChange={(event) => update({ workflowId: event.target.value })}
          className="max-w-60"
          options={[{ value: "", label: "all workflows" }, ...(workflows.data ?? []).map((workflow) => ({ value: workflow.id, label: workflow.name }))]}
        />
        {data && (
          <p className="text-xs text-slate-500" data-testid="metrics-window">
            {data.workflow ? `${data.workflow.name}, ` : ""}runs created since {data.from.toISOString().slice(0, 16).replace("T", " ")} UTC
          </p>
        )}
      </div>
      {insights.error && (
        <p role="alert" className="text-sm text-red-700">
          {insights.error.message}
        </p>
      )}
      {!data && !insights.error && <p className="text-sm text-slate-500">Counting…</p>}
      {data && (
        <>
          <SummaryFigures insights={data} />
          <div className="grid gap-4 lg:grid-cols-2">
            <RunsByStatusChart insights={data} />
            <EscalationRateChart insights={data} />
            <CostPerWorkflowChart insights={data} />
            <FailureReasonsList insights={data} />
          </div>
        </>
      )}
    </div>
  );
}

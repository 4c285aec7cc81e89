"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./chart-card";
import { formatTokensCompact, formatUsd } from "@/server/usage/format-usage";
import type { Insights } from "./types";

export function CostPerWorkflowChart({ insights }: { insights: Insights }) {
  const { workflows } = insights.cost;
  const data = workflows.map((workflow) => ({ name: workflow.name, cost: workflow.costUsd }));
  return (
    <ChartCard id="chart-cost-per-workflow" title="Cost per workflow" note="Model cost of the runs created in the window, most expensive workflow first.">
      {workflows.length === 0 ? (
        <p className="py-6 text-sm text-slate-500">No runs in this window.</p>
      ) : (
        <div className="w-full" style={{ height: Math.max(96, 36 * data.length + 32) }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" tick={{ fontSize: 11 }} tickFormatter={(value: number) => formatUsd(value)} />
              <YAxis type="category" dataKey="name" width={110} tick={{ fontSize: 11 }} />
              <Tooltip formatter={(value) => formatUsd(Number(value))} />
              <Bar dataKey="cost" name="cost" fill="#0ea5e9" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
      {workflows.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="min-w-full text-left text-xs tabular-nums" aria-label="Cost per workflow" data-testid="cost-per-workflow-figures">
            <thead className="text-slate-500">
              <tr>
                {["Workflow", "Runs", "Cost", "Per run", "Tokens in / out"].map((column) => (
                  <th key={column} className="px-2 py-1 font-medium">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {workflows.map((workflow) => (
                <tr key={workflow.workflowId ?? ""} data-key={workflow.name}>
                  <td className="max-w-40 truncate px-2 py-1 font-medium text-slate-800" title={workflow.name}>
                    {workflow.name}
                  </td>
                  <td className="px-2 py-1">{workflow.runs}</td>
                  <td className="px-2 py-1">{formatUsd(workflow.costUsd)}</td>
                  <td className="px-2 py-1">{formatUsd(workflow.costPerRunUsd)}</td>
                  <td className="px-2 py-1 whitespace-nowrap">
                    {formatTokensCompact(workflow.promptTokens)} / {formatTokensCompact(workflow.completionTokens)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {insights.cost.truncated && <p className="mt-1 text-xs text-slate-500">Only the most expensive workflows are listed; the totals above count every run.</p>}
        </div>
      )}
    </ChartCard>
  );
}

"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./chart-card";
import { FiguresTable } from "./figures-table";
import { formatBucket, formatPercent } from "./insights-format";
import type { Insights } from "./types";

export function EscalationRateChart({ insights }: { insights: Insights }) {
  const data = insights.runs.buckets.map((entry, index) => {
    const escalated = insights.escalations.buckets[index]?.escalatedRuns ?? 0;
    return { bucket: entry.bucket, label: formatBucket(entry.bucket, insights.unit), runs: entry.total, escalated, rate: entry.total === 0 ? null : Math.round((escalated / entry.total) * 100) };
  });
  return (
    <ChartCard id="chart-escalation-rate" title="Escalation rate" note={`Share of the runs created in each ${insights.unit} that asked a person at least once.`}>
      <div className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={12} />
            <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
            <Tooltip formatter={(value) => `${String(value)}%`} />
            <Bar dataKey="rate" name="escalation rate" fill="#f59e0b" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <FiguresTable
        label="Escalation rate"
        testId="escalation-rate-figures"
        columns={["When", "Runs", "Escalated", "Rate"]}
        rows={data.filter((entry) => entry.runs > 0).map((entry) => ({ key: entry.bucket, cells: [entry.label, entry.runs, entry.escalated, formatPercent(entry.runs === 0 ? null : entry.escalated / entry.runs)] }))}
      />
    </ChartCard>
  );
}

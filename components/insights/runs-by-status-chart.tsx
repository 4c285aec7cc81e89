"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { RUN_STATUSES, type RunStatus } from "@/server/engine/run/run-record";
import { ChartCard } from "./chart-card";
import { FiguresTable } from "./figures-table";
import { formatBucket } from "./insights-format";
import type { Insights } from "./types";

// The run status badges' colours (components/dashboard/run-status-badge.tsx), one shade darker for bars.
const STATUS_COLOURS: Record<RunStatus, string> = {
  queued: "#94a3b8",
  dispatched: "#6366f1",
  running: "#3b82f6",
  suspended: "#8b5cf6",
  succeeded: "#10b981",
  failed: "#ef4444",
  escalated: "#f59e0b",
  cancelled: "#a8a29e",
};

export function RunsByStatusChart({ insights }: { insights: Insights }) {
  // Only statuses that occur get a bar and a legend entry: eight mostly-empty entries crowd a phone.
  const statuses = RUN_STATUSES.filter((status) => insights.runs.byStatus[status] > 0);
  const data = insights.runs.buckets.map((entry) => ({ label: formatBucket(entry.bucket, insights.unit), ...entry.byStatus }));
  return (
    <ChartCard id="chart-runs-by-status" title="Runs by status" note={`Runs created in each ${insights.unit} (UTC), by their status now.`}>
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={12} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {statuses.map((status) => (
              <Bar key={status} dataKey={status} name={status} stackId="runs" fill={STATUS_COLOURS[status]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <FiguresTable
        label="Runs by status"
        testId="runs-by-status-figures"
        columns={["When", "All", ...statuses]}
        rows={insights.runs.buckets.filter((entry) => entry.total > 0).map((entry) => ({ key: entry.bucket, cells: [formatBucket(entry.bucket, insights.unit), entry.total, ...statuses.map((status) => entry.byStatus[status])] }))}
      />
    </ChartCard>
  );
}

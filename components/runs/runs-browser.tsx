"use client";

import Link from "next/link";
import { useState } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RunStatusBadge } from "@/components/dashboard/run-status-badge";
import { RelativeTime } from "@/components/ui/relative-time";

const STATUSES = ["queued", "dispatched", "running", "suspended", "succeeded", "failed", "cancelled"] as const;
type Status = (typeof STATUSES)[number];
const PAGE = 50;

/** A run's wall time so far or in total, as people read it. */
export function formatDuration(from: Date | null, to: Date | null, now = new Date()): string {
  if (!from) return "–";
  const ms = (to ?? now).getTime() - new Date(from).getTime();
  if (ms < 1000) return `${Math.max(0, ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

/** Every run, newest first, filtered by status and workflow, a page at a time. */
export function RunsBrowser() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<Status | "">("");
  const [workflow, setWorkflow] = useState("");
  const workflows = useQuery(trpc.workflow.list.queryOptions({ includeArchived: true }));
  const runs = useInfiniteQuery(
    trpc.run.listRecent.infiniteQueryOptions(
      { limit: PAGE, status: status || undefined, workflow: workflow || undefined },
      {
        getNextPageParam: (last) => (last.length < PAGE ? undefined : { createdAt: last.at(-1)!.createdAt, id: last.at(-1)!.id }),
        refetchInterval: 3000,
      },
    ),
  );
  const rows = runs.data?.pages.flat() ?? [];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value as Status | "")} className="rounded-md border border-slate-300 px-2 py-1.5 text-sm">
            <option value="">all</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Workflow
          <select value={workflow} onChange={(event) => setWorkflow(event.target.value)} className="rounded-md border border-slate-300 px-2 py-1.5 text-sm">
            <option value="">all</option>
            {workflows.data?.map((w) => (
              <option key={w.id}>{w.name}</option>
            ))}
          </select>
        </label>
      </div>
      {runs.error && <p role="alert" className="text-sm text-red-700">{runs.error.message}</p>}
      <table className="min-w-full text-left text-sm" aria-label="Runs">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">Status</th>
            <th className="px-4 py-2 font-medium">Workflow</th>
            <th className="px-4 py-2 font-medium">Attempts</th>
            <th className="px-4 py-2 font-medium">Duration</th>
            <th className="px-4 py-2 font-medium">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((run) => (
            <tr key={run.id} data-testid="runs-row" data-run-id={run.id}>
              <td className="px-4 py-2">
                <RunStatusBadge status={run.status} />
              </td>
              <td className="px-4 py-2">
                <Link href={`/runs/${run.id}`} className="font-medium text-slate-900 hover:underline">
                  {run.workflow ? `${run.workflow.name} v${run.workflow.version}` : "unknown workflow"}
                </Link>
              </td>
              <td className="px-4 py-2 tabular-nums">{run.attemptCount}</td>
              <td className="px-4 py-2 tabular-nums">{formatDuration(run.createdAt, run.finishedAt)}</td>
              <td className="px-4 py-2 text-slate-500">
                <RelativeTime date={run.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && !runs.isPending && <p className="text-sm text-slate-500">No runs match.</p>}
      {runs.hasNextPage && (
        <button type="button" onClick={() => runs.fetchNextPage()} disabled={runs.isFetchingNextPage} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium">
          Load more
        </button>
      )}
    </div>
  );
}

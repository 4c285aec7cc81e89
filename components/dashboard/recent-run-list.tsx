"use client";

import Link from "next/link";
import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RelativeTime } from "@/components/ui/relative-time";
import { RunStatusBadge } from "./run-status-badge";
import { truncateForDisplay } from "./truncate-for-display";

const SPECIFICATION_PREVIEW_LENGTH = 140;

/** `limit` must match the one the page prefetched with, or the query would miss the cache. */
export function RecentRunList({ limit }: { limit: number }) {
  const trpc = useTRPC();
  const { data: runs } = useSuspenseQuery(trpc.run.listRecent.queryOptions({ limit }));
  if (runs.length === 0) {
    return (
      <p data-testid="runs-empty" className="px-5 py-8 text-sm text-slate-600">
        No runs yet. Runs are listed here, newest first, once one is created for a workflow.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm" data-testid="run-list">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-2 font-medium">Status</th>
            <th scope="col" className="px-5 py-2 font-medium">Workflow</th>
            <th scope="col" className="px-5 py-2 font-medium">Specification</th>
            <th scope="col" className="px-5 py-2 font-medium">Attempts</th>
            <th scope="col" className="px-5 py-2 font-medium">Created</th>
            <th scope="col" className="px-5 py-2 font-medium">Finished</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {runs.map((run) => (
            <tr key={run.id} data-testid="run-row" data-run-id={run.id} className="align-top">
              <td className="px-5 py-3">
                <RunStatusBadge status={run.status} />
              </td>
              <td className="whitespace-nowrap px-5 py-3" data-testid="run-workflow">
                <Link href={`/runs/${run.id}`} className="group" data-testid="run-link">
                  {run.workflow ? (
                    <>
                      <span className="font-medium text-slate-900 group-hover:underline">{run.workflow.name}</span>
                      <span className="ml-1.5 text-xs text-slate-500">v{run.workflow.version}</span>
                    </>
                  ) : (
                    <span className="text-slate-400 group-hover:underline">unknown workflow</span>
                  )}
                </Link>
              </td>
              <td className="max-w-md px-5 py-3 text-slate-700" title={run.specification}>
                {truncateForDisplay(run.specification, SPECIFICATION_PREVIEW_LENGTH)}
              </td>
              <td className="px-5 py-3 tabular-nums text-slate-700">{run.attemptCount}</td>
              <td className="whitespace-nowrap px-5 py-3 text-slate-500">
                <RelativeTime date={run.createdAt} />
              </td>
              <td className="whitespace-nowrap px-5 py-3 text-slate-500">
                {run.finishedAt ? <RelativeTime date={run.finishedAt} /> : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

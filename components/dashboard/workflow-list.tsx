"use client";

import { useState } from "react";
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { StartRunButton } from "@/components/runs/start-run-button";
import { RelativeTime } from "@/components/ui/relative-time";
import { GettingStarted } from "./getting-started";

/** The workflows; archived ones (not runnable, runs kept) only when "Show archived" is ticked. */
export function WorkflowList() {
  const trpc = useTRPC();
  const [showArchived, setShowArchived] = useState(false);
  const { data: active } = useSuspenseQuery(trpc.workflow.list.queryOptions());
  const everything = useQuery({ ...trpc.workflow.list.queryOptions({ includeArchived: true }), enabled: showArchived });
  const workflows = showArchived ? (everything.data ?? active) : active;
  const toggle = (
    <label className="flex items-center gap-2 px-5 pt-3 text-sm text-slate-600">
      <input type="checkbox" checked={showArchived} onChange={(event) => setShowArchived(event.target.checked)} />
      Show archived
    </label>
  );
  if (workflows.length === 0)
    return (
      <>
        <GettingStarted />
        {toggle}
      </>
    );
  return (
    <>
      {toggle}
      <ul className="divide-y divide-slate-100" data-testid="workflow-list">
        {workflows.map((workflow) => (
          <li key={workflow.id} data-testid="workflow-row" className="flex flex-wrap items-start justify-between gap-4 px-5 py-4">
            <div className="min-w-0 flex-1 basis-64">
              <p className="font-medium text-slate-900" data-testid="workflow-name">
                <a href={`/workflows/${encodeURIComponent(workflow.name)}`} className="hover:underline">
                  {workflow.name}
                </a>
                {workflow.latestVersion !== null && (
                  <span className="ml-2 text-xs font-normal text-slate-500">v{workflow.latestVersion}</span>
                )}
                {workflow.archivedAt && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-normal text-amber-900">archived</span>}
              </p>
              {workflow.description && <p className="mt-1 text-sm text-slate-600">{workflow.description}</p>}
            </div>
            <div className="flex shrink-0 items-start gap-4">
              <div className="text-right text-sm text-slate-500">
                <p>
                  {workflow.runCount} {workflow.runCount === 1 ? "run" : "runs"}
                </p>
                <p>
                  updated <RelativeTime date={workflow.updatedAt} />
                </p>
              </div>
              {workflow.latestVersion !== null && workflow.archivedAt === null && <StartRunButton workflow={workflow} />}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

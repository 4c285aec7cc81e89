"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { StartRunButton } from "@/components/runs/start-run-button";
import { RelativeTime } from "@/components/ui/relative-time";
import { GettingStarted } from "./getting-started";

export function WorkflowList() {
  const trpc = useTRPC();
  const { data: workflows } = useSuspenseQuery(trpc.workflow.list.queryOptions());
  if (workflows.length === 0) return <GettingStarted />;
  return (
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
            {workflow.latestVersion !== null && <StartRunButton workflow={workflow} />}
          </div>
        </li>
      ))}
    </ul>
  );
}

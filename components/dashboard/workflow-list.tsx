"use client";

import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useListState } from "@/components/lists/use-list-state";
import { useTRPC } from "@/components/providers/trpc-provider";
import { StartRunButton } from "@/components/runs/start-run-button";
import { Pagination } from "@/components/ui/pagination";
import { RelativeTime } from "@/components/ui/relative-time";
import { SearchInput } from "@/components/ui/search-input";
import { EmptyRows } from "@/components/ui/table";
import { GettingStarted } from "./getting-started";

/** The workflow list has no filters beyond its search; page and size are in the URL too. */
const WORKFLOW_FILTERS = {} as const;
/** The overview shows more at once than the other lists: it is where people find a workflow to run. */
const WORKFLOWS_PER_PAGE = 50;

export function WorkflowList() {
  const trpc = useTRPC();
  const { state, update } = useListState(WORKFLOW_FILTERS, WORKFLOWS_PER_PAGE);
  const [showArchived, setShowArchived] = useState(false);
  const workflows = useQuery(
    trpc.workflow.listPage.queryOptions(
      { search: state.search || undefined, page: state.page, pageSize: state.pageSize, includeArchived: showArchived || undefined },
      { placeholderData: keepPreviousData },
    ),
  );
  if (!workflows.data) return workflows.error ? <p role="alert" className="px-5 py-4 text-sm text-red-700">{workflows.error.message}</p> : null;
  const { items, total } = workflows.data;
  const toggle = (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      <input type="checkbox" checked={showArchived} onChange={(event) => setShowArchived(event.target.checked)} />
      Show archived
    </label>
  );
  if (total === 0 && !state.search && !showArchived)
    return (
      <>
        <GettingStarted />
        <div className="px-5 pb-3">{toggle}</div>
      </>
    );
  return (
    <div>
      <div className="flex flex-wrap items-end gap-3 border-b border-slate-100 px-5 py-3" role="search" aria-label="Find workflows">
        <SearchInput value={state.search} onSearch={(search) => update({ search })} label="Search workflows" hint="name or description" />
        {toggle}
      </div>
      <ul className="divide-y divide-slate-100" data-testid="workflow-list">
        {items.map((workflow) => (
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
      {items.length === 0 && <EmptyRows>No workflows match.</EmptyRows>}
      {workflows.data.pageCount > 1 || state.page > 1 ? (
        <div className="border-t border-slate-100 px-5 py-3">
          <Pagination
            noun="workflows"
            page={workflows.data.page}
            pageCount={workflows.data.pageCount}
            pageSize={workflows.data.pageSize}
            total={total}
            onPage={(page) => update({ page })}
            onPageSize={(pageSize) => update({ pageSize })}
          />
        </div>
      ) : null}
    </div>
  );
}

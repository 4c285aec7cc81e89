"use client";

import Link from "next/link";
import { UsageSummary } from "@/components/usage/usage-summary";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RunStatusBadge } from "@/components/dashboard/run-status-badge";
import { dayRange } from "@/components/lists/list-state";
import { useListState } from "@/components/lists/use-list-state";
import { DayInput } from "@/components/ui/day-input";
import { Pagination } from "@/components/ui/pagination";
import { RelativeTime } from "@/components/ui/relative-time";
import { SearchInput } from "@/components/ui/search-input";
import { Select } from "@/components/ui/select";
import { EmptyRows, Table, TableBody, TableHead, Td } from "@/components/ui/table";
import { RUN_STATUSES } from "@/server/engine/run/run-record";

/** The runs page's filters, as they appear in its URL. */
const RUN_FILTERS = {
  status: { kind: "choice", values: RUN_STATUSES },
  workflow: { kind: "text" },
  from: { kind: "day" },
  to: { kind: "day" },
} as const;

/** A run's wall time so far or in total, as people read it. */
export function formatDuration(from: Date | null, to: Date | null, now = new Date()): string {
  if (!from) return "–";
  const ms = (to ?? now).getTime() - new Date(from).getTime();
  if (ms < 1000) return `${Math.max(0, ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

/** Every run, newest first: searched, filtered and paged, all of it in the URL. */
export function RunsBrowser() {
  const trpc = useTRPC();
  const { state, update } = useListState(RUN_FILTERS);
  const { status, workflow, from, to } = state.filters;
  const workflows = useQuery(trpc.workflow.list.queryOptions({ includeArchived: true }));
  const runs = useQuery(
    trpc.run.list.queryOptions(
      { search: state.search || undefined, status: (status || undefined) as (typeof RUN_STATUSES)[number] | undefined, workflow: workflow || undefined, ...dayRange(from, to), page: state.page, pageSize: state.pageSize },
      { refetchInterval: 3000, placeholderData: keepPreviousData },
    ),
  );
  const rows = runs.data?.items ?? [];
  const workflowNames = workflows.data?.map((w) => w.name) ?? [];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Find runs">
        <SearchInput value={state.search} onSearch={(search) => update({ search })} hint="id, specification or workflow" />
        <Select label="Status" value={status} onChange={(event) => update({ filters: { status: event.target.value } })} options={[{ value: "", label: "all" }, ...RUN_STATUSES.map((s) => ({ value: s }))]} />
        <Select
          label="Workflow"
          value={workflow}
          onChange={(event) => update({ filters: { workflow: event.target.value } })}
          // A workflow named in the URL stays selectable even before the list of names arrives.
          options={[{ value: "", label: "all" }, ...[...new Set([...(workflow ? [workflow] : []), ...workflowNames])].map((name) => ({ value: name }))]}
        />
        <DayInput label="From" value={from} onChange={(day) => update({ filters: { from: day } })} />
        <DayInput label="To" value={to} onChange={(day) => update({ filters: { to: day } })} />
      </div>
      {runs.error && <p role="alert" className="text-sm text-red-700">{runs.error.message}</p>}
      <Table label="Runs">
        <TableHead columns={["Status", "Workflow", "Specification", "Attempts", "Tokens and cost", "Duration", "Created"]} />
        <TableBody>
          {rows.map((run) => (
            <tr key={run.id} data-testid="runs-row" data-run-id={run.id}>
              <Td>
                <RunStatusBadge status={run.status} />
              </Td>
              <Td>
                <Link href={`/runs/${run.id}`} className="font-medium whitespace-nowrap text-slate-900 hover:underline">
                  {run.workflow ? `${run.workflow.name} v${run.workflow.version}` : "unknown workflow"}
                </Link>
              </Td>
              <Td className="max-w-xs truncate text-slate-600" title={run.specification}>
                {run.specification}
              </Td>
              <Td className="tabular-nums">{run.attemptCount}</Td>
              <Td className="tabular-nums whitespace-nowrap">
                <UsageSummary totals={run} testId="runs-row-cost" />
              </Td>
              <Td className="tabular-nums whitespace-nowrap">{formatDuration(run.createdAt, run.finishedAt)}</Td>
              <Td className="whitespace-nowrap text-slate-500">
                <RelativeTime date={run.createdAt} />
              </Td>
            </tr>
          ))}
        </TableBody>
      </Table>
      {rows.length === 0 && !runs.isPending && <EmptyRows>No runs match.</EmptyRows>}
      {runs.data && (
        <Pagination
          noun="runs"
          page={runs.data.page}
          pageCount={runs.data.pageCount}
          pageSize={runs.data.pageSize}
          total={runs.data.total}
          onPage={(page) => update({ page })}
          onPageSize={(pageSize) => update({ pageSize })}
        />
      )}
    </div>
  );
}

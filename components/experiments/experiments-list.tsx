"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePermission } from "@/components/auth/signed-in-user";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { Pagination } from "@/components/ui/pagination";
import { RelativeTime } from "@/components/ui/relative-time";
import { Select } from "@/components/ui/select";
import { EmptyRows, Table, TableBody, TableHead, Td } from "@/components/ui/table";
import { ExperimentStatusBadge } from "./experiment-status-badge";
import { percent } from "./format";

/** Every experiment, newest first, with its progress and pass rate so far; two of one dataset can be compared. */
export function ExperimentsList() {
  const trpc = useTRPC();
  const router = useRouter();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [baseline, setBaseline] = useState("");
  const [candidate, setCandidate] = useState("");
  const start = usePermission("start_experiment");
  const experiments = useQuery(trpc.experiments.list.queryOptions({ page, pageSize }, { refetchInterval: 3000, placeholderData: keepPreviousData }));
  const rows = experiments.data?.items ?? [];
  const options = [{ value: "", label: "choose…" }, ...rows.map((row) => ({ value: row.id, label: `${row.name} (${row.status})` }))];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <form
          className="flex flex-wrap items-end gap-3"
          aria-label="Compare experiments"
          onSubmit={(event) => {
            event.preventDefault();
            if (baseline && candidate) router.push(`/experiments/compare?a=${encodeURIComponent(baseline)}&b=${encodeURIComponent(candidate)}`);
          }}
        >
          <Select label="Baseline" value={baseline} onChange={(event) => setBaseline(event.target.value)} options={options} />
          <Select label="Candidate" value={candidate} onChange={(event) => setCandidate(event.target.value)} options={options} />
          <Button type="submit" disabled={!baseline || !candidate || baseline === candidate}>
            Compare
          </Button>
        </form>
        {start.allowed ? (
          <Link href="/experiments/new" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-slate-700">
            New experiment
          </Link>
        ) : (
          <span className="text-sm text-slate-500">{start.reason}</span>
        )}
      </div>
      {experiments.error && <p role="alert" className="text-sm text-red-700">{experiments.error.message}</p>}
      <Table label="Experiments">
        <TableHead columns={["Status", "Experiment", "Workflow", "Dataset", "Progress", "Pass rate", "Created"]} />
        <TableBody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="experiments-row">
              <Td>
                <ExperimentStatusBadge status={row.status} />
              </Td>
              <Td>
                <Link href={`/experiments/${row.id}`} className="font-medium text-slate-900 hover:underline">
                  {row.name}
                </Link>
              </Td>
              <Td className="whitespace-nowrap">
                {row.workflow} v{row.workflowVersion}
              </Td>
              <Td className="whitespace-nowrap">
                {row.dataset} v{row.datasetVersion} · k={row.k}
              </Td>
              <Td className="tabular-nums">
                {row.ended}/{row.samples}
              </Td>
              <Td className="tabular-nums">{row.ended > 0 ? percent(row.succeeded / row.ended) : "–"}</Td>
              <Td className="whitespace-nowrap text-slate-500">
                <RelativeTime date={row.createdAt} />
              </Td>
            </tr>
          ))}
        </TableBody>
      </Table>
      {rows.length === 0 && !experiments.isPending && <EmptyRows>No experiments yet. Run a workflow version over a dataset to measure it.</EmptyRows>}
      {experiments.data && (
        <Pagination
          noun="experiments"
          page={experiments.data.page}
          pageCount={experiments.data.pageCount}
          pageSize={experiments.data.pageSize}
          total={experiments.data.total}
          onPage={setPage}
          onPageSize={setPageSize}
        />
      )}
    </div>
  );
}

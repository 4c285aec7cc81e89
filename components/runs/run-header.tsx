import Link from "next/link";
import { RunStatusBadge } from "@/components/dashboard/run-status-badge";
import type { RunDetail } from "./types";
import { ForkedFrom } from "./forked-from";
import { RunControls } from "./run-controls";
import { RunUsageLine } from "./run-usage-line";
import { isTerminalRunStatus } from "./run-status";

/** The workflow and version the run ran, its status, and its id. */
export function RunHeader({ run, refreshing, streaming }: { run: RunDetail; refreshing: boolean; streaming: boolean }) {
  return (
    <header className="space-y-2" data-testid="run-header">
      <Link href="/#runs" className="text-sm text-slate-500 hover:text-slate-900">
        ← Recent runs
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900" data-testid="run-workflow-name">
          {run.workflow ? run.workflow.name : "Unknown workflow"}
          {run.workflow && <span className="ml-2 text-base font-normal text-slate-500">v{run.workflow.version}</span>}
        </h1>
        <RunStatusBadge status={run.status} />
        {refreshing && (
          <span className="text-xs text-slate-500" data-testid="run-live" data-streaming={streaming || undefined}>
            {streaming ? "live" : "reconnecting…"}
          </span>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <p className="font-mono text-xs text-slate-500">run {run.id}</p>
        <Link href={`/runs/${run.id}/provenance`} className="text-sm font-medium text-sky-700 underline hover:text-sky-900">
          Provenance
        </Link>
        <RunControls runId={run.id} ended={isTerminalRunStatus(run.status)} workflowName={run.workflow?.name ?? null} />
      </div>
      <RunUsageLine run={run} />
      <ForkedFrom run={run} />
    </header>
  );
}

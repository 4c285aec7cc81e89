import Link from "next/link";
import { RunStatusBadge } from "@/components/dashboard/run-status-badge";
import { ForkEdit } from "../fork-edit";
import type { ComparedRun } from "./types";

function outcomeOf(run: ComparedRun): string {
  if (run.status === "cancelled") return run.cancellation?.by ? `Cancelled by ${run.cancellation.by}` : "Cancelled";
  const result = run.finalResult;
  if (!result) return "No result yet";
  if (result.status === "success") return "Succeeded: every guard is satisfied";
  if (result.status === "escalation") return `Escalated at ${result.failedStep ?? "an unknown step"}`;
  return `Failed at ${result.failedStep ?? "an unknown step"}${result.reason ? `: ${result.reason}` : ""}`;
}

/** One side's head: which run, its status, how it ended, where it was forked from. */
export function ComparedRunCard({ side, run }: { side: "A" | "B"; run: ComparedRun }) {
  return (
    <section aria-label={`Run ${side}`} data-testid={`compared-run-${side.toLowerCase()}`} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold text-slate-900">{side}</span>
        <RunStatusBadge status={run.status} />
        <span className="text-sm text-slate-700">
          {run.workflow ? `${run.workflow.name} v${run.workflow.version}` : "Unknown workflow"}, {run.attemptCount} {run.attemptCount === 1 ? "attempt" : "attempts"}
        </span>
      </div>
      <Link href={`/runs/${run.id}`} className="block font-mono text-xs text-sky-700 underline hover:text-sky-900">
        run {run.id}
      </Link>
      {run.forkedFrom && (
        <>
          <p className="text-xs text-slate-600">
            Forked from <span className="font-mono">{run.forkedFrom.runId}</span> at <code className="font-mono">{run.forkedFrom.attemptKey}</code>
          </p>
          <ForkEdit edit={run.forkedFrom} />
        </>
      )}
      <p data-testid="compared-outcome" className="whitespace-pre-wrap break-words text-sm text-slate-700">
        {outcomeOf(run)}
      </p>
    </section>
  );
}

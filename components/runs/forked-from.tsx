import Link from "next/link";
import { compareHref } from "./compare-href";
import { ForkEdit } from "./fork-edit";
import type { RunDetail } from "./types";

/** Where a forked run came from, the edit it started with, and the comparison with the original. */
export function ForkedFrom({ run }: { run: RunDetail }) {
  if (!run.forkedFrom) return null;
  const { runId, attemptKey } = run.forkedFrom;
  return (
    <div data-testid="forked-from" className="space-y-2 rounded-md border border-slate-200 bg-white px-4 py-3">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
        <span>
          Forked from{" "}
          <Link href={`/runs/${runId}`} className="font-mono text-sky-700 underline hover:text-sky-900">
            run {runId}
          </Link>{" "}
          at <code className="font-mono">{attemptKey}</code>
        </span>
        <Link href={compareHref(runId, run.id)} className="font-medium text-sky-700 underline hover:text-sky-900">
          Compare with the original
        </Link>
      </p>
      <ForkEdit edit={run.forkedFrom} />
    </div>
  );
}

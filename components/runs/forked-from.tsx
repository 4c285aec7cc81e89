import Link from "next/link";
import type { RunDetail } from "./types";

/** Where a forked run came from, and the comparison with it. */
export function ForkedFrom({ run }: { run: RunDetail }) {
  if (!run.forkedFrom) return null;
  const { runId, attemptKey } = run.forkedFrom;
  return (
    <p data-testid="forked-from" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
      <span>
        Forked from{" "}
        <Link href={`/runs/${runId}`} className="font-mono text-sky-700 underline hover:text-sky-900">
          run {runId}
        </Link>{" "}
        at <code className="font-mono">{attemptKey}</code>
      </span>
      <Link href={`/runs/compare?a=${encodeURIComponent(runId)}&b=${encodeURIComponent(run.id)}`} className="font-medium text-sky-700 underline hover:text-sky-900">
        Compare with the original
      </Link>
    </p>
  );
}

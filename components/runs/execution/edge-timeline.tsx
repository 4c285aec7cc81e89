import Link from "next/link";
import type { RunExecution } from "../types";
import { describeEdge, shownOf } from "./execution-text";

const PRIMITIVE_CLASSES: Record<string, string> = {
  enqueue: "bg-slate-100 text-slate-700",
  report: "bg-emerald-100 text-emerald-800",
  join: "bg-sky-100 text-sky-800",
  tool_call: "bg-violet-100 text-violet-800",
};

/** The execution edges of the run in time order (003 3.1.1): messages enqueued, calls made and reported, sub-runs joined. */
export function EdgeTimeline({ edges }: { edges: RunExecution["edges"] }) {
  if (edges.items.length === 0) return <p className="px-5 py-6 text-sm text-slate-600">No execution edges recorded for this run.</p>;
  const more = shownOf(edges.items.length, edges.total, "edges");
  return (
    <div className="max-h-[32rem] overflow-auto">
      {more && <p className="px-5 pt-3 text-xs text-slate-500">Showing {more}.</p>}
      <ol className="divide-y divide-slate-100" aria-label="Execution edges">
        {edges.items.map((edge) => {
          const { text, otherRunId } = describeEdge(edge);
          return (
            <li key={edge.id} data-testid="execution-edge" data-primitive={edge.primitive} data-phase={edge.phase} data-direction={edge.direction} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-2 text-sm">
              <span className="w-24 shrink-0 font-mono text-xs text-slate-500" title={edge.createdAt.toISOString()}>
                {edge.createdAt.toISOString().slice(11, 23)}
              </span>
              <span className={`rounded px-1.5 py-0.5 font-mono text-xs ${PRIMITIVE_CLASSES[edge.primitive] ?? "bg-slate-100 text-slate-700"}`}>
                {edge.primitive}/{edge.phase}
              </span>
              {edge.kind && <span className="font-mono text-xs text-slate-500">{edge.kind}</span>}
              <span className="text-slate-700">{text}</span>
              {otherRunId && (
                <Link href={`/runs/${otherRunId}`} className="font-mono text-xs text-sky-700 underline hover:text-sky-900">
                  run {otherRunId.slice(0, 8)}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

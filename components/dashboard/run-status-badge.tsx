import type { RouterOutputs } from "@/server/api/root";

export type RunStatus = RouterOutputs["run"]["listRecent"][number]["status"];

// A Record over the status union: a new status fails to compile until it has a colour.
const STATUS_CLASSES: Record<RunStatus, string> = {
  queued: "bg-slate-100 text-slate-700 ring-slate-300",
  dispatched: "bg-indigo-100 text-indigo-700 ring-indigo-300",
  running: "bg-blue-100 text-blue-700 ring-blue-300",
  suspended: "bg-violet-100 text-violet-700 ring-violet-300",
  succeeded: "bg-emerald-100 text-emerald-700 ring-emerald-300",
  failed: "bg-red-100 text-red-700 ring-red-300",
  escalated: "bg-amber-100 text-amber-800 ring-amber-300",
  cancelled: "bg-stone-200 text-stone-600 ring-stone-400",
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return (
    <span
      data-testid="run-status"
      data-status={status}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_CLASSES[status]}`}
    >
      {status}
    </span>
  );
}

const TONES: Record<string, string> = {
  queued: "bg-slate-100 text-slate-700",
  running: "bg-blue-100 text-blue-800",
  completed: "bg-green-100 text-green-800",
  cancelled: "bg-amber-100 text-amber-800",
  failed: "bg-red-100 text-red-800",
};

/** An experiment's status (server/durable/lifecycle.ts EXPERIMENT_STATUSES) as a badge. */
export function ExperimentStatusBadge({ status }: { status: string }) {
  return <span className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${TONES[status] ?? TONES.queued}`} data-testid="experiment-status">{status}</span>;
}

import { RelativeTime } from "@/components/ui/relative-time";
import type { RunExecution } from "../types";
import { outcomeTone, shownOf } from "./execution-text";

const TONE_CLASSES = {
  good: "bg-emerald-100 text-emerald-700 ring-emerald-300",
  bad: "bg-red-100 text-red-700 ring-red-300",
  wait: "bg-violet-100 text-violet-700 ring-violet-300",
  neutral: "bg-stone-200 text-stone-600 ring-stone-400",
} as const;

/** One row per turn (TurnRecord): which message started it, which worker ran it, and what it delivered. */
export function TurnList({ turns }: { turns: RunExecution["turns"] }) {
  if (turns.items.length === 0) return <p className="px-5 py-6 text-sm text-slate-600">No turn of this run has been recorded yet.</p>;
  const more = shownOf(turns.items.length, turns.total, "turns");
  return (
    <div className="overflow-x-auto">
      {more && <p className="px-5 pt-3 text-xs text-slate-500">Showing {more}.</p>}
      <table className="min-w-full text-left text-sm" aria-label="Turns" data-testid="turn-table">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-2 font-medium">Epoch</th>
            <th scope="col" className="px-3 py-2 font-medium">Message</th>
            <th scope="col" className="px-3 py-2 font-medium">Worker</th>
            <th scope="col" className="px-3 py-2 font-medium">Outcome</th>
            <th scope="col" className="px-3 py-2 font-medium">Delivered, or why not</th>
            <th scope="col" className="px-5 py-2 font-medium">Ended</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {turns.items.map((turn) => (
            <tr key={turn.epoch} data-testid="turn-row" data-epoch={turn.epoch} data-outcome={turn.outcome} className="align-top">
              <td className="px-5 py-2 tabular-nums text-slate-500">{turn.epoch}</td>
              <td className="px-3 py-2 font-mono text-xs text-slate-700">{turn.kind ?? "—"}</td>
              <td className="px-3 py-2 font-mono text-xs text-slate-500">{turn.workerId ?? "—"}</td>
              <td className="px-3 py-2">
                <span data-testid="turn-outcome" className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE_CLASSES[outcomeTone(turn.outcome)]}`}>
                  {turn.outcome}
                </span>
              </td>
              <td className="max-w-xl break-words px-3 py-2 text-slate-700" data-testid="turn-deliverable">
                {turn.deliverable ?? <span className="text-slate-400">—</span>}
              </td>
              <td className="whitespace-nowrap px-5 py-2 text-xs text-slate-500">
                <RelativeTime date={turn.endedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

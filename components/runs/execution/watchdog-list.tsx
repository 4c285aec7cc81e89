import { OptionalTime } from "../optional-time";
import type { RunExecution } from "../types";
import { shownOf } from "./execution-text";

const ACTION_LABELS: Record<RunExecution["watchdog"]["items"][number]["action"], string> = {
  note: "last note",
  took_over: "lost turn",
  expired_escalation: "expired an escalation",
  timed_out_call: "timed out a call",
};

/** What the watchdog did to the run: its last note, turns it found lost, escalations and calls it timed out. */
export function WatchdogList({ watchdog }: { watchdog: RunExecution["watchdog"] }) {
  if (watchdog.items.length === 0) return <p className="px-5 py-4 text-sm text-slate-600">The watchdog has not had to act on this run.</p>;
  const more = shownOf(watchdog.items.length, watchdog.total, "actions");
  return (
    <div>
      {more && <p className="px-5 pt-3 text-xs text-slate-500">Showing {more}.</p>}
      <ul className="divide-y divide-slate-100" aria-label="What the watchdog did">
        {watchdog.items.map((item, index) => (
          <li key={`${item.action}-${index}`} data-testid="watchdog-action" data-action={item.action} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-5 py-2 text-sm">
            <span className="w-40 shrink-0 text-xs font-medium uppercase tracking-wide text-slate-500">{ACTION_LABELS[item.action]}</span>
            <span className="min-w-0 flex-1 whitespace-pre-wrap break-words text-slate-800">{item.text}</span>
            <span className="text-xs text-slate-500">
              <OptionalTime date={item.at} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

import type { RouterOutputs } from "@/server/api/root";

type EscalationReach = RouterOutputs["escalation"]["get"]["escalation"]["reach"];

/**
 * Who an escalation is offered to now (and, after a hand-off, from whom and when) and what its
 * deadline will do. `compact` is the queue's cell: it names the deadline only when it does more
 * than fail the run (the default), and keeps everything in the tooltip.
 */
export function EscalationReachNote({ reach, compact = false }: { reach: EscalationReach; compact?: boolean }) {
  const offered = reach.handOff ?? (reach.group ? `Offered to ${reach.group}.` : null);
  if (compact) {
    const shown = [offered, reach.deadlineStep && reach.deadlineStep !== "fail" ? reach.deadline : null].filter(Boolean);
    if (shown.length === 0) return null;
    return (
      <p className="mt-1 line-clamp-3 text-xs text-slate-600" title={[offered, reach.deadline].filter(Boolean).join(" ")} data-testid="escalation-reach">
        {shown.join(" ")}
      </p>
    );
  }
  return (
    <>
      {offered && (
        <span data-testid="escalation-offered-to" className={reach.handOff ? "font-medium text-amber-800" : undefined}>
          {offered}
        </span>
      )}
      {reach.deadline && <span data-testid="escalation-deadline-action">{reach.deadline}</span>}
    </>
  );
}

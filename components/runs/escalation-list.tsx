import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { OptionalTime } from "./optional-time";
import type { RunEscalation } from "./types";

const STATUS_CLASSES: Record<RunEscalation["status"], string> = {
  pending: "bg-amber-100 text-amber-800 ring-amber-300",
  approved: "bg-emerald-100 text-emerald-700 ring-emerald-300",
  rejected: "bg-red-100 text-red-700 ring-red-300",
  expired: "bg-stone-200 text-stone-600 ring-stone-400",
  cancelled: "bg-stone-200 text-stone-600 ring-stone-400",
};

/** The run's escalations: what the fatal guard said, and whether a person has decided. */
export function EscalationList({ escalations }: { escalations: RunEscalation[] }) {
  return (
    <ul className="divide-y divide-slate-100">
      {escalations.map((escalation) => (
        <li key={escalation.id} data-testid="escalation" data-status={escalation.status} className="space-y-2 px-5 py-4 text-sm">
          <div className="flex flex-wrap items-center gap-3">
            <span className="font-mono font-medium text-slate-900">{escalation.stepName}</span>
            <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_CLASSES[escalation.status]}`}>
              {escalation.status}
            </span>
            <span className="text-xs text-slate-500">
              raised <RelativeTime date={escalation.createdAt} />
            </span>
            <span className="text-xs text-slate-500">
              expires <OptionalTime date={escalation.expiresAt} />
            </span>
            <Link href={`/escalations/${escalation.id}`} className="text-xs font-medium text-sky-700 hover:underline">
              {escalation.status === "pending" ? "Review and decide" : "Review"}
            </Link>
          </div>
          <p data-testid="escalation-feedback" className="whitespace-pre-wrap break-words rounded bg-amber-50 p-3 font-mono text-xs leading-5 text-slate-800">
            {escalation.feedback}
          </p>
          <p className="text-xs text-slate-500">
            {escalation.artifactId ? (
              <>
                artifact <code className="font-mono">{escalation.artifactId}</code>
              </>
            ) : (
              "budget: a person grants the run more or refuses"
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

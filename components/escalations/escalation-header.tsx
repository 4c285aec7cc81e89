import Link from "next/link";
import type { ReactNode } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import { describeDecision, type ClosedEscalation } from "./describe-decision";
import { TimeLeft } from "./time-left";

interface HeaderEscalation extends ClosedEscalation {
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

/**
 * The top of an escalation's review page, for every kind: where it sits, what it is about, and the
 * status line (status, when raised, then who decided or the time left). A kind adds its own items
 * to the status line as children (usage, claim, links), and what goes under it as `below`.
 */
export function EscalationHeader({ escalation, workflow, title, children, below }: { escalation: HeaderEscalation; workflow: string | null; title: ReactNode; children?: ReactNode; below?: ReactNode }) {
  const decided = describeDecision(escalation);
  return (
    <header className="space-y-1">
      <p className="text-sm text-slate-500">
        <Link href="/escalations" className="hover:underline">
          Escalations
        </Link>{" "}
        / {workflow ?? "unknown workflow"}
      </p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
        <span data-testid="escalation-status">
          Status <strong>{escalation.status}</strong>
        </span>
        <span>
          Raised <RelativeTime date={escalation.createdAt} />
        </span>
        {decided ? (
          <span data-testid="decided">{decided}</span>
        ) : (
          <span>
            Deadline <TimeLeft expiresAt={escalation.expiresAt} />
          </span>
        )}
        {children}
      </p>
      {below}
    </header>
  );
}

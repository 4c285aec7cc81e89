import Link from "next/link";
import { RunStatusBadge } from "@/components/dashboard/run-status-badge";
import type { RunExecution } from "../types";
import { shownOf } from "./execution-text";

/** A sub-run's link to its parent's waiting call, and a parent's links to its sub-runs (join edges both ways). */
export function RunFamilyLinks({ family }: { family: RunExecution["family"] }) {
  const { parent, children, childCount } = family;
  if (!parent && children.length === 0) return null;
  const more = shownOf(children.length, childCount, "sub-runs");
  return (
    <div className="space-y-1 rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600" data-testid="run-family">
      {parent && (
        <p data-testid="sub-run-of">
          Sub-run of{" "}
          <Link href={`/runs/${parent.runId}`} className="font-mono text-sky-700 underline hover:text-sky-900" data-testid="parent-run-link">
            run {parent.runId}
          </Link>
          {parent.workflow && <> ({parent.workflow})</>}
          {parent.callId && (
            <>
              , started for call <code className="font-mono">{parent.callId}</code>
              {parent.call && (
                <>
                  {": "}
                  <code className="font-mono">{parent.call.tool}</code> in step <code className="font-mono">{parent.call.stepName}</code>, {parent.call.status}
                </>
              )}
            </>
          )}
        </p>
      )}
      {children.length > 0 && (
        <div data-testid="sub-runs">
          <span>Sub-runs{more && ` (${more})`}: </span>
          <ul className="mt-1 space-y-1">
            {children.map((child) => (
              <li key={child.runId} className="flex flex-wrap items-center gap-2" data-testid="sub-run" data-run-id={child.runId}>
                <Link href={`/runs/${child.runId}`} className="font-mono text-sky-700 underline hover:text-sky-900">
                  run {child.runId}
                </Link>
                {child.workflow && <span>{child.workflow}</span>}
                <RunStatusBadge status={child.status} />
                {child.callId && (
                  <span className="text-xs">
                    for call <code className="font-mono">{child.callId}</code>
                    {child.tool && <> ({child.tool})</>}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

import type { RunDetail, RunResult } from "./types";

function Outcome({ result }: { result: RunResult }) {
  switch (result.status) {
    case "success":
      return (
        <div className="space-y-2">
          <p className="font-medium text-emerald-700">Succeeded: every guard is satisfied.</p>
          <ul className="space-y-1 text-xs text-slate-600">
            {Object.entries(result.artifactIds).map(([guardId, artifactId]) => (
              <li key={guardId}>
                <code className="font-mono text-slate-800">{guardId}</code> satisfied by artifact{" "}
                <code className="font-mono">{artifactId}</code>
              </li>
            ))}
          </ul>
        </div>
      );
    case "failed":
      return (
        <p className="text-red-700">
          <span className="font-medium">Failed at {result.failedStep ?? "an unknown step"}</span>
          {result.reason && <span className="mt-1 block whitespace-pre-wrap font-mono text-xs text-slate-700">{result.reason}</span>}
        </p>
      );
    case "escalation":
      return (
        <p className="text-amber-800">
          <span className="font-medium">Escalated at {result.failedStep ?? "an unknown step"}: waiting for a person.</span>
          {result.escalation && <span className="mt-1 block whitespace-pre-wrap font-mono text-xs text-slate-700">{result.escalation.feedback}</span>}
        </p>
      );
    default: {
      const unreachable: never = result.status;
      return <p>Unknown outcome {String(unreachable)}</p>;
    }
  }
}

/** A cancel is a person's choice, not a failure: who, when and why, instead of "Failed at (run)". */
function Cancelled({ run }: { run: RunDetail }) {
  const cancellation = run.cancellation;
  const at = cancellation?.at ?? run.finishedAt;
  return (
    <p className="text-stone-700" data-testid="run-cancelled">
      <span className="font-medium">
        Cancelled{cancellation?.by ? ` by ${cancellation.by}` : ""}
        {at && (
          <>
            {" "}
            at{" "}
            <time dateTime={at.toISOString()} suppressHydrationWarning>
              {at.toLocaleString()}
            </time>
          </>
        )}
      </span>
      {cancellation?.reason && <span className="mt-1 block whitespace-pre-wrap text-xs text-slate-600">Reason: {cancellation.reason}</span>}
    </p>
  );
}

/** How the run ended, or why it has not yet. */
export function RunResultPanel({ run }: { run: RunDetail }) {
  const pendingEscalation = run.escalations.some((escalation) => escalation.status === "pending");
  const cancelled = run.status === "cancelled";
  return (
    <div className="px-5 py-4 text-sm" data-testid="run-result" data-outcome={cancelled ? "cancelled" : (run.finalResult?.status ?? "none")}>
      {cancelled ? (
        <Cancelled run={run} />
      ) : run.finalResult ? (
        <Outcome result={run.finalResult} />
      ) : pendingEscalation ? (
        <p className="text-amber-800">No result yet: the run waits for a person to decide the escalation below.</p>
      ) : (
        <p className="text-slate-600">No result yet: the run is {run.status}.</p>
      )}
    </div>
  );
}

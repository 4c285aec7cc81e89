import { AttemptCard } from "./attempt-card";
import { groupAttemptsByStep } from "./group-attempts";
import type { RunAttempt } from "./types";

/** Every attempt of the run, grouped by step in the order the steps first ran. */
export function AttemptTimeline({ runId, attempts }: { runId: string; attempts: RunAttempt[] }) {
  if (attempts.length === 0) {
    return (
      <p data-testid="attempts-empty" className="px-5 py-6 text-sm text-slate-600">
        No attempts yet. Each generation and its guard&apos;s verdict appears here as the run makes it.
      </p>
    );
  }
  return (
    <ol className="space-y-6 px-5 py-5">
      {groupAttemptsByStep(attempts).map(({ stepName, attempts: stepAttempts }) => (
        <li key={stepName} data-testid="step-attempts" data-step={stepName}>
          <h3 className="mb-3 flex items-baseline gap-2 text-sm font-semibold text-slate-900">
            <span className="font-mono">{stepName}</span>
            <span className="text-xs font-normal text-slate-500">
              {stepAttempts.length} {stepAttempts.length === 1 ? "attempt" : "attempts"}
            </span>
          </h3>
          <ol className="space-y-3 border-l-2 border-slate-200 pl-4">
            {stepAttempts.map((attempt) => (
              <li key={attempt.id}>
                <AttemptCard runId={runId} attempt={attempt} />
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}

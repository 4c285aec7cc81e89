import { UsageSummary } from "@/components/usage/usage-summary";
import { AttemptCard } from "./attempt-card";
import { groupTimeline } from "./group-attempts";
import { StepRunCard } from "./step-run-card";
import type { RunDetail } from "./types";

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Every step of the run in the order it first ran: an action pair's attempts, the runs of llm, transition and code steps. */
export function AttemptTimeline({ run }: { run: RunDetail }) {
  const groups = groupTimeline(run.attempts, run.stepRuns, run.stepOrder);
  if (groups.length === 0) {
    return (
      <p data-testid="attempts-empty" className="px-5 py-6 text-sm text-slate-600">
        Nothing yet. Each step, each generation and its guard&apos;s verdict appears here as the run makes it.
      </p>
    );
  }
  return (
    <ol className="space-y-6 px-5 py-5">
      {groups.map(({ stepName, attempts, runs }) => (
        <li key={stepName} data-testid="step-attempts" data-step={stepName}>
          <h3 className="mb-3 flex items-baseline gap-2 text-sm font-semibold text-slate-900">
            <span className="font-mono">{stepName}</span>
            <span className="text-xs font-normal text-slate-500">{attempts.length > 0 ? count(attempts.length, "attempt") : count(runs.length, "run")}</span>
            {run.usage.byStep[stepName] && <UsageSummary totals={run.usage.byStep[stepName]} testId="step-usage" />}
          </h3>
          <ol className="space-y-3 border-l-2 border-slate-200 pl-4">
            {runs.map((stepRun) => (
              <li key={stepRun.key}>
                <StepRunCard runId={run.id} run={stepRun} />
              </li>
            ))}
            {attempts.map((attempt) => (
              <li key={attempt.id}>
                <AttemptCard runId={run.id} attempt={attempt} escalations={run.escalations} usage={run.usage.byAttempt[`${attempt.stepName}/attempt-${attempt.attempt}`] ?? null} />
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}

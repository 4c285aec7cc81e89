import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { PromptDisclosure } from "./prompt-disclosure";
import type { RunStepRun } from "./types";

const STATUS: Record<RunStepRun["status"], { label: string; className: string }> = {
  running: { label: "running", className: "bg-blue-100 text-blue-700 ring-blue-300" },
  completed: { label: "completed", className: "bg-emerald-100 text-emerald-700 ring-emerald-300" },
  failed: { label: "failed", className: "bg-red-100 text-red-700 ring-red-300" },
  skipped: { label: "skipped (on_failure)", className: "bg-amber-100 text-amber-800 ring-amber-300" },
  stopped: { label: "stopped", className: "bg-stone-200 text-stone-600 ring-stone-400" },
};

const KIND: Record<RunStepRun["kind"], string> = { llm: "llm step", transition: "transition step", code: "code step" };

/** One run of an llm, transition or code step: its output (or the variables it set), its decision, failed attempts, the prompt. */
export function StepRunCard({ runId, run }: { runId: string; run: RunStepRun }) {
  const status = STATUS[run.status];
  return (
    <article data-testid="step-run" data-kind={run.kind} data-status={run.status} className="rounded-md border border-slate-200 p-4">
      <header className="flex flex-wrap items-center gap-3 text-sm">
        <h4 className="font-medium text-slate-900">{run.visit > 1 ? `Visit ${run.visit}` : KIND[run.kind]}</h4>
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${status.className}`}>{status.label}</span>
        {run.visit > 1 && <span className="text-xs text-slate-500">{KIND[run.kind]}</span>}
        {run.state !== null && (
          <span data-testid="step-run-state" className="text-xs text-slate-500">
            in <span className="font-mono">{run.state}</span>
          </span>
        )}
        <span className="ml-auto text-xs text-slate-500">
          <RelativeTime date={run.startedAt} />
        </span>
      </header>
      {run.output !== null && (
        <div className="mt-3 text-xs">
          <p className="font-medium text-slate-600">{run.kind === "transition" ? "Answer (chooses the next state)" : run.kind === "code" ? "Output (the variables it set)" : "Answer"}</p>
          <p data-testid="step-run-output" className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono leading-5 text-slate-700">
            {run.output}
          </p>
        </div>
      )}
      {run.chosenState !== null && (
        <p data-testid="step-run-choice" className="mt-2 text-xs text-slate-700">
          Chose <span className="font-mono">{run.output}</span> → state <span className="font-mono font-medium">{run.chosenState}</span>
        </p>
      )}
      {run.artifactId !== null && (
        <p className="mt-2 text-xs">
          <Link data-testid="step-run-artifact" className="text-slate-600 underline" href={`/runs/${runId}/provenance/${encodeURIComponent(run.artifactId)}`}>
            Output artifact (its chain in the DAG)
          </Link>
        </p>
      )}
      {run.updates !== null && (
        <div className="mt-3 text-xs">
          <p className="font-medium text-slate-600">Context variables set</p>
          {Object.keys(run.updates).length === 0 ? (
            <p className="mt-1 text-slate-500">none</p>
          ) : (
            <ul data-testid="step-run-updates" className="mt-1 space-y-0.5 font-mono text-slate-700">
              {Object.entries(run.updates).map(([name, value]) => (
                <li key={name}>
                  {name} = {JSON.stringify(value)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {run.failedAttempts.length > 0 && (
        <div className="mt-3 text-xs">
          <p className="font-medium text-slate-600">Failed attempts</p>
          <ol data-testid="step-run-failed-attempts" className="mt-1 space-y-1">
            {run.failedAttempts.map(({ attempt, reason, artifactId }) => (
              <li key={attempt} className="whitespace-pre-wrap break-words rounded bg-amber-50 p-2 font-mono leading-5 text-amber-900">
                {attempt}. {reason}
                {artifactId !== null && (
                  <>
                    {" "}
                    <Link className="underline" href={`/runs/${runId}/provenance/${encodeURIComponent(artifactId)}`}>
                      (artifact)
                    </Link>
                  </>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
      {run.reason && <p className="mt-3 whitespace-pre-wrap break-words rounded bg-red-50 p-3 font-mono text-xs leading-5 text-red-800">{run.reason}</p>}
      <PromptDisclosure prompt={run.prompt} />
    </article>
  );
}

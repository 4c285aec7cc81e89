import { CodeBlock } from "@/components/runs/code-block";
import type { RouterOutputs } from "@/server/api/root";

type StepTestResult = RouterOutputs["stepTest"]["run"];
type Attempt = StepTestResult["attempts"][number];
type Outcome = StepTestResult["outcome"];

const VERDICT_CLASSES: Record<Attempt["verdict"] | Attempt["guards"][number]["verdict"], string> = {
  pass: "bg-emerald-100 text-emerald-800 ring-emerald-300",
  fail: "bg-red-100 text-red-700 ring-red-300",
  fatal: "bg-red-700 text-white ring-red-800",
  no_answer: "bg-amber-100 text-amber-800 ring-amber-300",
  not_run: "bg-slate-100 text-slate-500 ring-slate-300",
};

const VERDICT_LABELS: Record<keyof typeof VERDICT_CLASSES, string> = { pass: "pass", fail: "fail", fatal: "FATAL", no_answer: "no answer", not_run: "not run" };

function VerdictTag({ verdict }: { verdict: keyof typeof VERDICT_CLASSES }) {
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${VERDICT_CLASSES[verdict]}`}>{VERDICT_LABELS[verdict]}</span>;
}

function outcomeText(outcome: Outcome): { text: string; tone: string } {
  switch (outcome.kind) {
    case "passed":
      return { text: "Passed: every guard accepted the artifact.", tone: "border-emerald-300 bg-emerald-50 text-emerald-900" };
    case "failed":
      return { text: "Failed: in a run, the feedback below would go into the next attempt's prompt.", tone: "border-red-300 bg-red-50 text-red-900" };
    case "fatal":
      return { text: "Fatal: a run would stop here and escalate to a person.", tone: "border-red-400 bg-red-100 text-red-900" };
    case "generation_failed":
      return { text: `No answer: ${outcome.reason}`, tone: "border-amber-300 bg-amber-50 text-amber-900" };
    case "timed_out":
      return { text: outcome.reason, tone: "border-amber-300 bg-amber-50 text-amber-900" };
  }
}

const ms = (value: number | null) => (value === null ? "" : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`);

/** The rendered prompt, the output and each guard's verdict, per attempt. */
export function StepTestResultView({ result, language }: { result: StepTestResult; language: string | null }) {
  const outcome = outcomeText(result.outcome);
  return (
    <div className="space-y-4" data-testid="step-test-result">
      <p role="status" data-testid="step-test-outcome" data-outcome={result.outcome.kind} className={`rounded border px-3 py-2 text-sm ${outcome.tone}`}>
        {outcome.text} <span className="text-xs opacity-70">({ms(result.durationMs)} in all)</span>
      </p>
      {result.attempts.map((attempt) => (
        <AttemptView key={attempt.attempt} attempt={attempt} total={result.attemptsAllowed} language={language} />
      ))}
    </div>
  );
}

function AttemptView({ attempt, total, language }: { attempt: Attempt; total: number; language: string | null }) {
  return (
    <section aria-label={`Attempt ${attempt.attempt}`} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <header className="flex flex-wrap items-center gap-2 text-sm">
        <h3 className="font-semibold text-slate-900">
          Attempt {attempt.attempt} of {total}
        </h3>
        <VerdictTag verdict={attempt.verdict} />
        <span className="text-xs text-slate-500">
          {attempt.model ? `${attempt.model} · ` : ""}generated in {ms(attempt.generationMs)}
        </span>
      </header>
      <div>
        <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Guards</h4>
        {attempt.answerCheck && <p className="mb-1 text-sm text-red-800">The reply is not an answer, so no guard ran: {attempt.answerCheck}</p>}
        <ol className="space-y-1">
          {attempt.guards.map((guard) => (
            <li key={guard.index} data-testid="guard-verdict" data-verdict={guard.verdict} className="rounded border border-slate-200 px-2 py-1 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">
                  {guard.index}. {guard.kind}
                </span>
                <VerdictTag verdict={guard.verdict} />
                {guard.durationMs !== null && <span className="text-xs text-slate-500">{ms(guard.durationMs)}</span>}
              </div>
              {guard.feedback && <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap text-xs text-slate-700">{guard.feedback}</pre>}
            </li>
          ))}
        </ol>
      </div>
      {attempt.artifact !== null && (
        <div>
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Output (the artifact the guards checked)</h4>
          <CodeBlock code={attempt.artifact} language={language} label={`Output of attempt ${attempt.attempt}`} />
        </div>
      )}
      {attempt.rawOutput !== null && attempt.rawOutput !== attempt.artifact && (
        <details>
          <summary className="cursor-pointer text-xs font-semibold text-slate-600">The model&apos;s whole reply</summary>
          <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{attempt.rawOutput}</pre>
        </details>
      )}
      {attempt.prompt.length > 0 && (
        <details>
          <summary className="cursor-pointer text-xs font-semibold text-slate-600">Rendered prompt</summary>
          {attempt.prompt.map((message, index) => (
            <div key={index} className="mt-1">
              <p className="text-xs font-medium text-slate-500">{message.role}</p>
              <pre data-testid="prompt-message" className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">
                {message.content}
              </pre>
            </div>
          ))}
        </details>
      )}
    </section>
  );
}

import { RelativeTime } from "@/components/ui/relative-time";
import { CodeBlock } from "./code-block";
import { ForkButton } from "./fork-button";
import type { RunAttempt } from "./types";
import { verdictOf } from "./verdict";
import { VerdictBadge } from "./verdict-badge";

/** One generation attempt: the guard's verdict and feedback, the code behind a disclosure. */
export function AttemptCard({ runId, attempt }: { runId: string; attempt: RunAttempt }) {
  const verdict = verdictOf(attempt);
  const lineCount = attempt.content.split("\n").length;
  return (
    <article data-testid="attempt" data-verdict={verdict} data-attempt={attempt.attempt} className="rounded-md border border-slate-200 p-4">
      <header className="flex flex-wrap items-center gap-3 text-sm">
        <h4 className="font-medium text-slate-900">Attempt {attempt.attempt}</h4>
        <VerdictBadge verdict={verdict} />
        <span className="text-xs text-slate-500">
          guard <code className="font-mono">{attempt.guardId}</code>
        </span>
        <span className="ml-auto text-xs text-slate-500">
          <RelativeTime date={attempt.createdAt} />
        </span>
        <ForkButton runId={runId} artifactId={attempt.id} label={`${attempt.stepName} attempt ${attempt.attempt}`} />
      </header>
      {attempt.feedback && (
        <p data-testid="attempt-feedback" className="mt-3 whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-700">
          {attempt.feedback}
        </p>
      )}
      <details className="mt-3 group">
        <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">
          Code ({lineCount} {lineCount === 1 ? "line" : "lines"}{attempt.language ? `, ${attempt.language}` : ""})
        </summary>
        <div className="mt-2">
          <CodeBlock code={attempt.content} language={attempt.language} />
        </div>
      </details>
    </article>
  );
}

import { RelativeTime } from "@/components/ui/relative-time";
import { CodeBlock } from "./code-block";
import { ForkButton } from "./fork-button";
import { PromptDisclosure } from "./prompt-disclosure";
import { reviewerDecisionOf } from "./reviewer-decision";
import { ReviewerNote } from "./reviewer-note";
import type { RunAttempt, RunDetail, RunEscalation } from "./types";
import { UsageSummary } from "@/components/usage/usage-summary";

type AttemptUsage = RunDetail["usage"]["byAttempt"][string];
import { verdictOf } from "./verdict";
import { VerdictBadge } from "./verdict-badge";

/** One generation attempt: the guard's verdict and feedback, a person's decision on it, the prompt and the code behind disclosures. */
export function AttemptCard({ runId, attempt, escalations, usage = null }: { runId: string; attempt: RunAttempt; escalations: readonly RunEscalation[]; usage?: AttemptUsage | null }) {
  const verdict = verdictOf(attempt);
  const lineCount = attempt.content.split("\n").length;
  const review = reviewerDecisionOf(attempt.id, escalations);
  // An artifact no generator made is a reviewer's edit of the attempt before it.
  const edited = attempt.generator === null && attempt.parentId !== null;
  return (
    <article data-testid="attempt" data-verdict={verdict} data-attempt={attempt.attempt} className="rounded-md border border-slate-200 p-4">
      <header className="flex flex-wrap items-center gap-3 text-sm">
        <h4 className="font-medium text-slate-900">
          Attempt {attempt.attempt}
          {edited && <span className="ml-1 font-normal text-slate-500">(a reviewer&apos;s edit)</span>}
        </h4>
        <VerdictBadge verdict={verdict} />
        <span className="text-xs text-slate-500">
          guard <code className="font-mono">{attempt.guardId}</code>
        </span>
        {attempt.generator === "replay" && <span className="text-xs text-slate-500">replayed from a cassette</span>}
        {usage && <UsageSummary totals={usage} testId="attempt-usage" />}
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
      {review && <ReviewerNote decision={review} />}
      <PromptDisclosure prompt={attempt.prompt} />
      <details className="group mt-3">
        <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">
          Code ({lineCount} {lineCount === 1 ? "line" : "lines"}
          {attempt.language ? `, ${attempt.language}` : ""})
        </summary>
        <div className="mt-2">
          <CodeBlock code={attempt.content} language={attempt.language} />
        </div>
      </details>
    </article>
  );
}

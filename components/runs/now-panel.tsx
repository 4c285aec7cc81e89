import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { describeNow, nowSentence, type NowTone } from "./now-summary";
import type { RunDetail } from "./types";

const TONE: Record<NowTone, string> = {
  waiting: "border-slate-300 bg-slate-50",
  active: "border-blue-300 bg-blue-50",
  person: "border-violet-300 bg-violet-50",
  success: "border-emerald-300 bg-emerald-50",
  failure: "border-red-300 bg-red-50",
  cancelled: "border-stone-300 bg-stone-100",
};

/** The first thing on the run page: what is happening now (state, step, attempt n of N, what it waits for), or how the run ended. */
export function NowPanel({ run }: { run: RunDetail }) {
  const summary = describeNow(run);
  const position = summary.position;
  return (
    <section aria-label="Now" data-testid="run-now" data-tone={summary.tone} className={`rounded-lg border px-5 py-4 ${TONE[summary.tone]}`}>
      <p className="sr-only" data-testid="run-now-sentence">
        {nowSentence(summary)}
      </p>
      <div aria-hidden="true" className="space-y-1">
        <p className="text-lg font-semibold text-slate-900" data-testid="run-now-headline">
          {summary.headline}
          {summary.at && summary.tone !== "person" && (
            <span className="ml-2 text-sm font-normal text-slate-600">
              <RelativeTime date={summary.at} />
            </span>
          )}
        </p>
        {position && (position.state || position.step) && (
          <p className="text-sm text-slate-700">
            {position.state && (
              <>
                {summary.tone === "success" ? "ended in state " : "in state "}
                <code className="font-mono font-medium">{position.state}</code>
              </>
            )}
            {position.step && (
              <>
                {position.state ? ", " : ""}step <code className="font-mono font-medium">{position.step}</code>
              </>
            )}
            {position.attempt !== null && (
              <>
                , attempt <span className="tabular-nums font-medium">{position.attempt}</span>
                {position.maxAttempts !== null && (
                  <>
                    {" "}
                    of <span className="tabular-nums">{position.maxAttempts}</span>
                  </>
                )}
              </>
            )}
          </p>
        )}
        {summary.activity && (
          <p className="text-sm text-slate-700" data-testid="run-now-activity">
            {summary.activity}
          </p>
        )}
        {summary.detail && <p className="whitespace-pre-wrap break-words font-mono text-xs text-slate-600">{summary.detail}</p>}
      </div>
      {summary.escalationId && (
        <p className="mt-2 text-sm">
          <Link href={`/escalations/${summary.escalationId}`} className="font-medium text-violet-800 underline hover:text-violet-950">
            Review escalation {summary.escalationId}
          </Link>
          {summary.at && (
            <span className="ml-2 text-slate-600">
              expires <RelativeTime date={summary.at} />
            </span>
          )}
        </p>
      )}
    </section>
  );
}

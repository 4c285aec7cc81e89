"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { useRouter } from "next/navigation";
import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { RouterOutputs } from "@/server/api/root";
import { FIRST_RUN_GUIDE_COOKIE, FIRST_RUN_GUIDE_HIDDEN } from "./first-run-guide-cookie";
import { RunExampleButton } from "./run-example-button";

type Guide = RouterOutputs["overview"]["firstRunGuide"];

/** While the example's run has not shown its outcome, the guide checks again this often. */
const IN_PROGRESS_REFRESH_MS = 2_000;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The overview's short path for a new user: what Dualstate is, then run the bundled escalation
 * example, watch it live, review its escalation. In full on a database with no runs, as a compact
 * hint once there is data; gone once the person has reviewed an escalation or hidden it.
 */
export function FirstRunGuide() {
  const trpc = useTRPC();
  const { data: guide } = useSuspenseQuery({
    ...trpc.overview.firstRunGuide.queryOptions(),
    refetchInterval: (query) => (query.state.data?.run && !query.state.data.steps.watched ? IN_PROGRESS_REFRESH_MS : false),
  });
  const router = useRouter();
  if (guide.steps.reviewed) return null;

  function hide() {
    document.cookie = `${FIRST_RUN_GUIDE_COOKIE}=${FIRST_RUN_GUIDE_HIDDEN}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax`;
    router.refresh();
  }

  const compact = guide.hasRuns;
  return (
    <section
      data-testid="first-run-guide"
      data-compact={compact || undefined}
      aria-labelledby="first-run-guide-title"
      className="rounded-lg border border-sky-200 bg-sky-50 px-5 py-4 text-sm leading-6 text-slate-700 shadow-sm"
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id="first-run-guide-title" className="text-base font-semibold text-slate-900">
          {compact ? "First steps with Dualstate" : "Welcome to Dualstate"}
        </h2>
        <button type="button" onClick={hide} className="shrink-0 rounded px-2 py-0.5 text-xs text-slate-500 hover:bg-sky-100 hover:text-slate-800">
          Hide this guide
        </button>
      </div>
      {compact ? (
        <p className="mt-1 max-w-3xl">
          Guards check each step a model writes, and what must not pass waits for a person. Three steps show the loop:
        </p>
      ) : (
        <p className="mt-1 max-w-3xl">
          Dualstate runs code-generation workflows that cannot go wrong silently. A model writes each step&apos;s code,{" "}
          <strong className="font-semibold text-slate-900">guards</strong> check it (syntax, tests in a sandbox, security),
          failed checks go back to the model as feedback, and what a guard must not let through stops and waits for a person.
          Three steps show the whole loop, offline, with a recorded model:
        </p>
      )}
      <ol className={`${compact ? "mt-2 flex flex-wrap gap-x-6 gap-y-2" : "mt-3 space-y-3"}`}>
        <GuideStep testId="guide-step-run" number={1} title="Run an example" done={guide.steps.ran} compact={compact}>
          <RunStepBody guide={guide} compact={compact} />
        </GuideStep>
        <GuideStep testId="guide-step-watch" number={2} title="Watch it" done={guide.steps.watched} compact={compact}>
          {guide.run ? (
            <Link href={`/runs/${guide.run.id}`} className="font-medium text-sky-800 underline hover:text-sky-950">
              {guide.steps.watched ? "Open the run" : "Watch the run live"}
            </Link>
          ) : (
            !compact && <span>The run&apos;s page shows each model call and each guard&apos;s verdict as they happen.</span>
          )}
        </GuideStep>
        <GuideStep testId="guide-step-review" number={3} title="Review its escalation" done={guide.steps.reviewed} compact={compact}>
          <ReviewStepBody guide={guide} compact={compact} />
        </GuideStep>
      </ol>
    </section>
  );
}

function GuideStep({ testId, number, title, done, compact, children }: { testId: string; number: number; title: string; done: boolean; compact: boolean; children: ReactNode }) {
  return (
    <li data-testid={testId} data-done={done} className={compact ? "flex flex-wrap items-baseline gap-x-2" : "flex gap-3"}>
      <span
        aria-hidden="true"
        className={`inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${done ? "bg-emerald-600 text-white" : "bg-white text-slate-700 ring-1 ring-slate-300"} ${compact ? "self-center" : "mt-0.5"}`}
      >
        {done ? "✓" : number}
      </span>
      <div className={compact ? "flex flex-wrap items-baseline gap-x-2" : "space-y-1"}>
        <p className="font-medium text-slate-900">
          {title}
          <span className="sr-only">{done ? " (done)" : " (to do)"}</span>
        </p>
        {children}
      </div>
    </li>
  );
}

function RunStepBody({ guide, compact }: { guide: Guide; compact: boolean }) {
  const { example } = guide;
  if (!example) {
    return (
      <span>
        The bundled example is not in this database: under <em>New workflow</em> below, name one{" "}
        <code className="font-mono">{guide.exampleName}</code>, start from that example and save it; or start any
        workflow with its Run button.
      </span>
    );
  }
  return (
    <>
      {!compact && (
        <span className="block">
          <code className="font-mono text-slate-900">{example.name}</code> replays a recorded model: the script it writes calls{" "}
          <code className="font-mono">os.system</code>, so the security guard stops the run for a person to decide.
        </span>
      )}
      {guide.mayStartRuns ? (
        <RunExampleButton workflowId={example.workflowId} again={guide.steps.ran} />
      ) : (
        <span className="block text-slate-600" data-testid="guide-run-not-allowed">
          Your role is viewer: starting runs needs the reviewer or admin role, so ask an admin to start it (or to change your role); you can still watch it and read its escalation.
        </span>
      )}
    </>
  );
}

function ReviewStepBody({ guide, compact }: { guide: Guide; compact: boolean }) {
  const { escalation } = guide;
  const verb = guide.mayDecide ? "Review the escalation" : "Read the escalation";
  if (escalation && escalation.status === "pending") {
    return (
      <span className={compact ? "" : "block"}>
        <Link href={`/escalations/${escalation.id}`} className="font-medium text-sky-800 underline hover:text-sky-950">
          {verb}
        </Link>
        {!compact && (guide.mayDecide ? ": approve it, or reject it with feedback so the step retries." : ": a reviewer or admin decides it.")}
      </span>
    );
  }
  if (escalation) {
    // Someone else decided the example's escalation: a new run gives this person one of their own.
    return <span className={compact ? "" : "block"}>Its escalation has been decided{guide.mayDecide ? "; run the example again to review one yourself." : "."}</span>;
  }
  if (compact) return null;
  return (
    <span className="block">
      {guide.mayDecide
        ? "Once the guard stops the run, its escalation is linked here: the code with the offending line marked, and Approve or Reject."
        : "Once the guard stops the run, its escalation is linked here; a reviewer or admin decides it."}
    </span>
  );
}

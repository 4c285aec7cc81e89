import Link from "next/link";
import { TimeLeft } from "@/components/escalations/time-left";
import { CopyButton } from "@/components/ui/copy-button";
import { RelativeTime } from "@/components/ui/relative-time";
import type { RunExecution, RunToolWait } from "../types";
import { shownOf, waitingOn } from "./execution-text";

const KIND_CLASSES: Record<string, string> = {
  person: "bg-violet-100 text-violet-800 ring-violet-300",
  workflow: "bg-sky-100 text-sky-800 ring-sky-300",
  external: "bg-amber-100 text-amber-800 ring-amber-300",
};

const STATUS_TEXT: Record<RunToolWait["status"], string> = { waiting: "waiting", reported: "reported", timed_out: "timed out", cancelled: "cancelled" };

function JsonDetails({ label, preview }: { label: string; preview: { text: string; truncated: boolean } }) {
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-slate-500">
        {label}
        {preview.truncated && " (cut)"}
      </summary>
      <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-slate-800">{preview.text}</pre>
    </details>
  );
}

function WaitingCall({ wait }: { wait: RunToolWait }) {
  return (
    <li data-testid="waiting-call" data-call-id={wait.callId} data-kind={wait.kind} className="space-y-2 px-5 py-4 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-mono font-medium text-slate-900" data-testid="waiting-tool">
          {wait.tool}
        </span>
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${KIND_CLASSES[wait.kind] ?? "bg-slate-100 text-slate-700 ring-slate-300"}`} data-testid="waiting-kind">
          {wait.kind}
        </span>
        <span className="text-xs text-slate-500">
          waits for {waitingOn(wait.kind)} · step <code className="font-mono">{wait.stepName}</code>, attempt {wait.attempt}
        </span>
      </div>
      {wait.question && (
        <p data-testid="waiting-question" className="whitespace-pre-wrap break-words rounded bg-violet-50 p-3 text-slate-800">
          {wait.question}
        </p>
      )}
      {wait.kind === "person" && (
        // The review queue's form for the question (reviewers answer there; others may read it).
        <Link href={`/escalations/questions/${encodeURIComponent(wait.callId)}`} className="inline-block text-sm font-medium text-sky-700 hover:underline" data-testid="answer-question">
          Answer the question
        </Link>
      )}
      {wait.kind === "workflow" && (
        <p className="text-slate-700">
          Sub-workflow <code className="font-mono">{wait.workflow ?? "?"}</code>
          {wait.childRunId ? (
            <>
              {": "}
              <Link href={`/runs/${wait.childRunId}`} className="font-mono text-sky-700 underline hover:text-sky-900" data-testid="waiting-sub-run">
                sub-run {wait.childRunId}
              </Link>
            </>
          ) : (
            ", its sub-run not started yet"
          )}
        </p>
      )}
      <dl className="grid gap-x-6 gap-y-1 text-xs text-slate-600 sm:grid-cols-[auto_1fr]">
        <dt>Call id</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <code className="font-mono text-slate-900" data-testid="waiting-call-id">
            {wait.callId}
          </code>
          <CopyButton text={wait.callId} label="Copy call id" />
        </dd>
        <dt>Since</dt>
        <dd data-testid="waiting-since">
          <RelativeTime date={wait.since} />
        </dd>
        <dt>Deadline</dt>
        <dd data-testid="waiting-deadline">
          <TimeLeft expiresAt={wait.deadlineAt} /> <span className="text-slate-400">({wait.deadlineAt.toISOString()})</span>
        </dd>
      </dl>
      {wait.reportCommand && (
        <div className="space-y-1">
          <p className="text-xs text-slate-600">Report its result from a shell (the result must match the schema below):</p>
          <pre data-testid="report-command" className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">
            {wait.reportCommand}
          </pre>
          <CopyButton text={wait.reportCommand} label="Copy command" />
        </div>
      )}
      <JsonDetails label="Input" preview={wait.input} />
      {wait.resultSchema && <JsonDetails label={wait.kind === "person" ? "Answer form (schema)" : "Result schema"} preview={wait.resultSchema} />}
    </li>
  );
}

function EarlierCall({ wait }: { wait: RunToolWait }) {
  return (
    <li data-testid="earlier-call" data-call-id={wait.callId} data-status={wait.status} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-2 text-xs text-slate-600">
      <span className="font-mono text-slate-900">{wait.tool}</span>
      <span>{wait.kind}</span>
      <span className="font-medium">{STATUS_TEXT[wait.status]}</span>
      {wait.reportedBy && <span>by {wait.reportedBy}</span>}
      {wait.reportedAt && <RelativeTime date={wait.reportedAt} />}
      <code className="font-mono text-slate-500">{wait.callId}</code>
      {wait.childRunId && (
        <Link href={`/runs/${wait.childRunId}`} className="text-sky-700 underline">
          sub-run
        </Link>
      )}
    </li>
  );
}

/** What a suspended run waits for: each tool call, who answers it, until when, and how to answer. */
export function WaitingPanel({ execution }: { execution: RunExecution }) {
  const waiting = execution.waits.items.filter((wait) => wait.status === "waiting");
  const earlier = execution.waits.items.filter((wait) => wait.status !== "waiting");
  if (waiting.length === 0 && earlier.length === 0) return null;
  const more = shownOf(execution.waits.items.length, execution.waits.total, "tool calls");
  return (
    <section id="waiting-for" aria-labelledby="waiting-for-title" data-testid="waiting-panel" className="scroll-mt-6 rounded-lg border border-violet-200 bg-white shadow-sm">
      <h2 id="waiting-for-title" className="border-b border-violet-200 px-5 py-3 text-base font-semibold text-slate-900">
        {waiting.length > 0 ? `Waiting for ${execution.waits.waiting === 1 ? "1 tool call" : `${execution.waits.waiting} tool calls`}` : "Tool calls"}
        {more && <span className="ml-2 text-sm font-normal text-slate-500">({more})</span>}
      </h2>
      {waiting.length > 0 && (
        <ul className="divide-y divide-slate-100" aria-label="Waiting tool calls">
          {waiting.map((wait) => (
            <WaitingCall key={wait.callId} wait={wait} />
          ))}
        </ul>
      )}
      {earlier.length > 0 && (
        <details className="border-t border-slate-100" open={waiting.length === 0}>
          <summary className="cursor-pointer px-5 py-2 text-sm text-slate-600">Answered, timed out or cancelled ({earlier.length})</summary>
          <ul className="divide-y divide-slate-100">
            {earlier.map((wait) => (
              <EarlierCall key={wait.callId} wait={wait} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

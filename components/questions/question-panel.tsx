"use client";

import Link from "next/link";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { usePermission } from "@/components/auth/signed-in-user";
import { TimeLeft } from "@/components/escalations/time-left";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RelativeTime } from "@/components/ui/relative-time";
import { AnswerForm } from "./answer-form";

/** Someone else may answer while the page is open; the page should say so soon. */
const REFRESH_MS = 3_000;
const STATUS_TEXT = { waiting: "waiting for an answer", reported: "answered", timed_out: "timed out", cancelled: "cancelled" } as const;

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One tool's question: what was asked, by which run and step, and the form to answer it (or who did). */
export function QuestionPanel({ callId }: { callId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: question } = useSuspenseQuery({ ...trpc.toolCall.question.queryOptions({ callId }), refetchInterval: REFRESH_MS });
  const permission = usePermission("answer_question");
  const answer = useMutation(trpc.toolCall.answer.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.toolCall.pathKey() }) }));
  const outcome = answer.data;
  return (
    <div className="space-y-6" data-testid="question-panel" data-call-id={question.callId} data-status={question.status}>
      <header className="space-y-1">
        <p className="text-sm text-slate-500">
          <Link href="/escalations" className="hover:underline">
            Escalations
          </Link>{" "}
          / Questions / {question.workflow ?? "unknown workflow"} · {question.stepName}
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Question from {question.tool}</h1>
        <p className="text-sm text-slate-600">
          Run{" "}
          <Link href={`/runs/${question.runId}`} className="font-mono text-slate-800 hover:underline">
            {question.runId.slice(0, 8)}
          </Link>{" "}
          asked <RelativeTime date={question.createdAt} /> · {STATUS_TEXT[question.status]}
          {question.status === "waiting" && (
            <>
              {" "}
              · <TimeLeft expiresAt={question.deadlineAt} />
            </>
          )}
        </p>
      </header>
      <section aria-labelledby="question-text" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="question-text" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          Question
        </h2>
        <p className="mt-2 whitespace-pre-wrap text-base text-slate-900" data-testid="question-text">
          {question.question || "(the tool asked no question in words; see what the model sent below)"}
        </p>
        <details className="mt-3 text-sm text-slate-600">
          <summary className="cursor-pointer">What the model sent, and the run&apos;s specification</summary>
          <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-xs">{json(question.input)}</pre>
          <p className="mt-2 whitespace-pre-wrap">{question.specification}</p>
        </details>
      </section>
      <section aria-labelledby="answer-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="answer-title" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">
          Your answer
        </h2>
        {outcome && (
          <p role="status" data-testid="answer-outcome" data-applied={outcome.applied} className={`mb-3 rounded-md px-3 py-2 text-sm ${outcome.applied ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-900"}`}>
            {outcome.applied ? "Answer sent; the run resumes with it." : outcome.message}
          </p>
        )}
        {question.status === "waiting" ? (
          permission.allowed ? (
            <AnswerForm schema={question.answerSchema} pending={answer.isPending} serverError={answer.error?.message ?? null} onAnswer={(value) => answer.mutate({ callId: question.callId, answer: value })} />
          ) : (
            <p className="text-sm text-slate-600">{permission.reason}.</p>
          )
        ) : (
          <div className="space-y-2 text-sm text-slate-700" data-testid="answered">
            {question.status === "reported" ? (
              <p>
                Answered by <span className="font-medium">{question.answeredBy ?? "someone"}</span>
                {question.answeredAt && (
                  <>
                    {" "}
                    <RelativeTime date={question.answeredAt} />
                  </>
                )}
                .
              </p>
            ) : (
              <p>No answer is needed any more: the question {question.status === "timed_out" ? "timed out and the run went on without it" : "was cancelled with its run"}.</p>
            )}
            {question.answer !== null && <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">{json(question.answer)}</pre>}
          </div>
        )}
      </section>
    </div>
  );
}

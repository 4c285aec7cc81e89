"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { TimeLeft } from "@/components/escalations/time-left";
import { useTRPC } from "@/components/providers/trpc-provider";
import { RelativeTime } from "@/components/ui/relative-time";

/** As often as the escalation queue: a new question appears while the reviewer looks. */
const LIVE_REFRESH_MS = 2_000;

/** Questions tools asked people, waiting for an answer: the review queue's Questions section. */
export function QuestionList() {
  const trpc = useTRPC();
  const questions = useQuery(trpc.toolCall.questions.queryOptions(undefined, { refetchInterval: LIVE_REFRESH_MS }));
  const items = questions.data?.items ?? [];
  return (
    <section aria-labelledby="questions-title" className="space-y-2">
      <h2 id="questions-title" className="text-lg font-semibold text-slate-900">
        Questions <span className="tabular-nums text-sm font-normal text-slate-500">({questions.data?.total ?? "…"} open)</span>
      </h2>
      <p className="text-sm text-slate-600">A run&apos;s tool asked a person; the run waits, holding no worker, until someone answers or the deadline passes.</p>
      {questions.error && (
        <p role="alert" className="text-sm text-red-700">
          {questions.error.message}
        </p>
      )}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full text-left text-sm" aria-label="Questions">
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-4 py-2 font-medium">Question</th>
              <th className="px-4 py-2 font-medium">Workflow · step</th>
              <th className="px-4 py-2 font-medium">Tool</th>
              <th className="px-4 py-2 font-medium">Run</th>
              <th className="px-4 py-2 font-medium">Since</th>
              <th className="px-4 py-2 font-medium">Deadline</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.map((item) => (
              <tr key={item.callId} data-testid="question-row" data-call-id={item.callId} data-run-id={item.runId} className="hover:bg-slate-50">
                <td className="max-w-md px-4 py-2">
                  <Link href={`/escalations/questions/${item.callId}`} className="line-clamp-2 font-medium text-slate-900 hover:underline" title={item.question}>
                    {item.question || `(${item.tool} asked without words)`}
                  </Link>
                </td>
                <td className="px-4 py-2 text-slate-700">
                  {item.workflow ?? "unknown workflow"} · {item.stepName}
                </td>
                <td className="px-4 py-2 font-mono text-xs text-slate-700">{item.tool}</td>
                <td className="px-4 py-2">
                  <Link href={`/runs/${item.runId}`} className="font-mono text-xs text-slate-700 hover:underline">
                    {item.runId.slice(0, 8)}
                  </Link>
                </td>
                <td className="px-4 py-2 text-slate-600">
                  <RelativeTime date={item.createdAt} />
                </td>
                <td className="px-4 py-2">
                  <TimeLeft expiresAt={item.deadlineAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {items.length === 0 && !questions.isPending && <p className="px-4 py-4 text-sm text-slate-500">No open questions. When a run&apos;s tool asks a person, the question appears here.</p>}
      </div>
    </section>
  );
}

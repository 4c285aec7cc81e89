"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { SectionCard } from "@/components/dashboard/section-card";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ComparePicker } from "../compare-picker";
import { AttemptPairRow } from "./attempt-pair-row";
import { forkPointAt } from "./fork-point-at";
import { ComparedRunCard } from "./compared-run-card";

/** Two runs side by side: heads and results, then their attempts lined up step by step. */
export function RunComparison({ a, b }: { a: string; b: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.run.compare.queryOptions({ a, b }));
  return (
    <div className="space-y-6" data-testid="run-comparison">
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <span>Compare A with a different run:</span>
        <ComparePicker runId={data.a.id} workflowName={data.a.workflow?.name ?? null} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <ComparedRunCard side="A" run={data.a} />
        <ComparedRunCard side="B" run={data.b} />
      </div>
      {data.a.specification !== data.b.specification && (
        <p role="note" className="rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-800">
          The two runs were given different specifications.
        </p>
      )}
      <SectionCard id="compared-attempts" title="Attempts">
        {data.attempts.length === 0 ? (
          <p className="px-5 py-6 text-sm text-slate-600">Neither run has made an attempt yet.</p>
        ) : (
          <ol className="space-y-3 px-5 py-5">
            {data.attempts.map((pair) => (
              <AttemptPairRow key={pair.key} pair={pair} forkPoint={forkPointAt(pair.key, data)} />
            ))}
          </ol>
        )}
      </SectionCard>
    </div>
  );
}

"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { SectionCard } from "@/components/dashboard/section-card";
import { useTRPC } from "@/components/providers/trpc-provider";
import { AttemptTimeline } from "./attempt-timeline";
import { ContextValues } from "./context-values";
import { EscalationList } from "./escalation-list";
import { LedgerSummary } from "./ledger-summary";
import { LedgerTable } from "./ledger-table";
import { LifecyclePanel } from "./lifecycle-panel";
import { RunHeader } from "./run-header";
import { StateMachineGraph } from "@/components/state-machine/state-machine-graph";
import { RunResultPanel } from "./run-result-panel";
import { isTerminalRunStatus } from "./run-status";

const REFRESH_MS = 1_000;

/** One run, refreshed every second until it reaches a terminal status. */
export function RunView({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const { data: run, isRefetchError } = useSuspenseQuery({
    ...trpc.run.get.queryOptions({ id: runId }),
    refetchInterval: (query) => (query.state.data && isTerminalRunStatus(query.state.data.status) ? false : REFRESH_MS),
  });
  const live = !isTerminalRunStatus(run.status);

  return (
    <div className="space-y-6" data-testid="run-view" data-run-id={run.id}>
      <RunHeader run={run} refreshing={live} />
      {isRefetchError && (
        <p role="status" className="rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-800">
          The latest update could not be loaded; showing what was last received, and trying again.
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <SectionCard id="specification" title="Specification">
            <p data-testid="run-specification" className="whitespace-pre-wrap break-words px-5 py-4 text-sm leading-6 text-slate-700">
              {run.specification}
            </p>
            <ContextValues values={run.contextValues} />
          </SectionCard>
          <SectionCard id="result" title="Result">
            <RunResultPanel run={run} />
          </SectionCard>
        </div>
        <SectionCard id="lifecycle" title="Lifecycle">
          <LifecyclePanel run={run} />
        </SectionCard>
      </div>
      {run.machine && (
        <SectionCard id="state-machine" title="State machine">
          <div className="p-3">
            <StateMachineGraph machine={run.machine} />
          </div>
        </SectionCard>
      )}
      {run.escalations.length > 0 && (
        <SectionCard id="escalations" title="Escalations">
          <EscalationList escalations={run.escalations} />
        </SectionCard>
      )}
      <SectionCard id="attempts" title="Attempts">
        <AttemptTimeline attempts={run.attempts} />
      </SectionCard>
      <SectionCard id="ledger" title="Ledger">
        <LedgerSummary ledger={run.ledger} />
        <LedgerTable entries={run.ledger.entries} />
      </SectionCard>
    </div>
  );
}

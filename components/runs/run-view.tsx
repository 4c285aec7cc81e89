"use client";

import { useState } from "react";
import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { SectionCard } from "@/components/dashboard/section-card";
import { useTRPC } from "@/components/providers/trpc-provider";
import { AttemptTimeline } from "./attempt-timeline";
import { ContextValues } from "./context-values";
import { EscalationList } from "./escalation-list";
import { LedgerSummary } from "./ledger-summary";
import { LedgerTable } from "./ledger-table";
import { LifecyclePanel } from "./lifecycle-panel";
import { LiveCallPanel } from "./live-call-panel";
import { NowPanel } from "./now-panel";
import { RunHeader } from "./run-header";
import { StateMachineGraph } from "@/components/state-machine/state-machine-graph";
import { RunResultPanel } from "./run-result-panel";
import { isTerminalRunStatus } from "./run-status";
import { EdgeTimeline } from "./execution/edge-timeline";
import { RunFamilyLinks } from "./execution/run-family-links";
import { TurnList } from "./execution/turn-list";
import { WaitingPanel } from "./execution/waiting-panel";
import { WatchdogList } from "./execution/watchdog-list";

/** Polling only while the live stream is down. */
const FALLBACK_REFRESH_MS = 2_000;
/** Ledger events arrive in bursts (an attempt is several entries): one reload per burst. */
const RELOAD_AFTER_EVENT_MS = 100;
/**
 * A sub-run's progress and a report's arrival are not always in this run's ledger at once: while
 * the run has not ended, its waits, turns and family are read again at this pace as well.
 */
const EXECUTION_REFRESH_MS = 5_000;

/**
 * One run, live: a subscription streams its ledger over server-sent events (resuming after a
 * reconnect from the last event id) and every new entry reloads the run's view.
 */
export function RunView({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reloadSoon] = useState(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: trpc.run.get.queryKey({ id: runId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.run.execution.queryKey({ id: runId }) });
      }, RELOAD_AFTER_EVENT_MS);
    };
  });
  // The server ends the stream once the run has ended and every entry is delivered.
  const stream = useSubscription(trpc.run.events.subscriptionOptions({ id: runId }, { onData: reloadSoon }));
  const streaming = stream.status === "pending";
  const { data: run, isRefetchError } = useSuspenseQuery({
    ...trpc.run.get.queryOptions({ id: runId }),
    // While the stream is down (reconnecting), poll until it is back.
    refetchInterval: (query) => ((query.state.data && isTerminalRunStatus(query.state.data.status)) || streaming ? false : FALLBACK_REFRESH_MS),
  });
  const live = !isTerminalRunStatus(run.status);
  const { data: execution } = useSuspenseQuery({
    ...trpc.run.execution.queryOptions({ id: runId }),
    refetchInterval: (query) => (query.state.data && isTerminalRunStatus(query.state.data.status) ? false : EXECUTION_REFRESH_MS),
  });

  return (
    <div className="space-y-6" data-testid="run-view" data-run-id={run.id}>
      <RunHeader run={run} refreshing={live} streaming={streaming} />
      {isRefetchError && (
        <p role="status" className="rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-800">
          The latest update could not be loaded; showing what was last received, and trying again.
        </p>
      )}
      <RunFamilyLinks family={execution.family} />
      <NowPanel run={run} />
      <WaitingPanel execution={execution} />
      {run.machine && (
        <SectionCard id="state-machine" title="State machine">
          <div className="p-3">
            <StateMachineGraph machine={run.machine} />
          </div>
        </SectionCard>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
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
      {run.escalations.length > 0 && (
        <SectionCard id="escalations" title="Escalations">
          <EscalationList escalations={run.escalations} />
        </SectionCard>
      )}
      <LiveCallPanel runId={run.id} live={live} />
      <SectionCard id="attempts" title="Steps and attempts">
        <AttemptTimeline run={run} />
      </SectionCard>
      <SectionCard id="turns" title="Turns">
        <TurnList turns={execution.turns} />
      </SectionCard>
      <div className="grid gap-6 lg:grid-cols-2">
        <SectionCard id="execution-edges" title="Execution edges">
          <EdgeTimeline edges={execution.edges} />
        </SectionCard>
        <SectionCard id="watchdog" title="What the watchdog did">
          <WatchdogList watchdog={execution.watchdog} />
        </SectionCard>
      </div>
      <details data-testid="lifecycle-details" className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <summary className="cursor-pointer px-5 py-3 text-base font-semibold text-slate-900">Lifecycle internals: lease, epoch, worker</summary>
        <LifecyclePanel run={run} />
      </details>
      <SectionCard id="ledger" title="Ledger">
        <LedgerSummary ledger={run.ledger} />
        <LedgerTable entries={run.ledger.entries} />
      </SectionCard>
    </div>
  );
}

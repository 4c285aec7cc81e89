"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { EmptyRows, Table, TableBody, TableHead, Td } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { CancelExperimentButton } from "./cancel-experiment-button";
import { ExperimentStatusBadge } from "./experiment-status-badge";
import { count, millis, percent, usd } from "./format";
import { ProgressBar } from "./progress-bar";

type Detail = RouterOutputs["experiments"]["get"];
const LIVE_STATUSES = new Set(["queued", "running"]);

/** The live page: progress bar, the numbers so far, one row per case filling in as its samples end. Polls while the experiment runs. */
export function ExperimentLive({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.experiments.get.queryOptions(
      { id },
      // Polls while runs are in flight (a cancelled experiment's runs still settle), then stops.
      { refetchInterval: (state) => (state.state.data && !LIVE_STATUSES.has(state.state.data.status) && state.state.data.progress.inFlight === 0 ? false : 1000) },
    ),
  );
  if (query.isPending) return <p className="text-sm text-slate-500">Loading…</p>;
  if (query.error) return <p role="alert" className="text-sm text-red-700">{query.error.message}</p>;
  const experiment = query.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{experiment.name}</h1>
          <p className="text-sm text-slate-600">
            <ExperimentStatusBadge status={experiment.status} /> {experiment.workflow.name} v{experiment.workflow.version} over {experiment.dataset.name} v{experiment.dataset.version}, k = {experiment.k}, at most{" "}
            {experiment.concurrency} at once{experiment.replay ? ", replayed from a cassette" : ""}; started by {experiment.createdBy}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <Link href={`/experiments/compare?a=${encodeURIComponent(experiment.id)}`} className="text-sm font-medium text-slate-700 underline">
            Compare with…
          </Link>
          {LIVE_STATUSES.has(experiment.status) && <CancelExperimentButton id={experiment.id} />}
        </div>
      </div>
      <ProgressBar {...experiment.progress} />
      <Summary summary={experiment.summary} />
      <section className="space-y-2">
        <h2 className="text-lg font-semibold text-slate-900">Cases</h2>
        <Table label="Cases">
          <TableHead columns={["Case", "Outcome", "Passed", "Attempts", "Runs"]} />
          <TableBody>
            {experiment.cases.map((row) => (
              <tr key={row.key} data-testid="experiment-case" data-outcome={row.outcome}>
                <Td className="font-mono text-xs">{row.key}</Td>
                <Td>{row.outcome}</Td>
                <Td className="tabular-nums">
                  {row.succeeded}/{row.scored}
                  {row.escalated > 0 ? ` (${row.escalated} escalated)` : ""}
                </Td>
                <Td className="tabular-nums">{row.attempts}</Td>
                <Td className="space-x-2">
                  {row.runs.map((run) =>
                    run.runId ? (
                      <Link key={run.sample} href={`/runs/${run.runId}`} className="text-xs text-slate-700 underline" title={run.outcome ?? "running"}>
                        #{run.sample} {run.outcome ?? "running"}
                      </Link>
                    ) : (
                      <span key={run.sample} className="text-xs text-slate-400">
                        #{run.sample} waiting
                      </span>
                    ),
                  )}
                </Td>
              </tr>
            ))}
          </TableBody>
        </Table>
        {experiment.cases.length === 0 && <EmptyRows>No cases.</EmptyRows>}
      </section>
    </div>
  );
}

function Summary({ summary }: { summary: Detail["summary"] }) {
  const tiles: [string, string][] = [
    ["Pass rate", `${percent(summary.passRate)}${summary.passRateInterval ? ` (95%: ${percent(summary.passRateInterval.low, 0)}–${percent(summary.passRateInterval.high, 0)})` : ""}`],
    ...summary.passAtK.map((entry): [string, string] => [`pass@${entry.k}`, percent(entry.value)]),
    ["First-attempt pass rate", percent(summary.firstAttemptPassRate)],
    ["Escalation rate", percent(summary.escalationRate)],
    ["Tokens", `${count(summary.promptTokens)} in / ${count(summary.completionTokens)} out`],
    ["Cost", usd(summary.costUsd)],
    ["Latency p50 / p95", `${millis(summary.latencyP50Ms)} / ${millis(summary.latencyP95Ms)}`],
  ];
  return (
    <section className="space-y-3" aria-label="Results">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {tiles.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid={`metric-${label}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-slate-500">
        Rates are over {summary.scored} scored samples (ended and not cancelled). pass@k is the unbiased estimator of the Codex paper, averaged over cases.
      </p>
      {summary.attemptsPerStep.length > 0 && (
        <p className="text-sm text-slate-700">
          Attempts per step: {summary.attemptsPerStep.map((step) => `${step.step} ${step.mean.toFixed(2)}`).join(", ")}
        </p>
      )}
      {summary.escalationReasons.length > 0 && (
        <div className="text-sm text-slate-700">
          Escalation reasons:
          <ul className="list-disc pl-5">
            {summary.escalationReasons.map((reason) => (
              <li key={reason.reason}>
                {reason.reason} ({reason.count})
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

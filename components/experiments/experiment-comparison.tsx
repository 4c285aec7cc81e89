"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Table, TableBody, TableHead, Td } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { PairedBarChart, type BarGroup } from "./bar-chart";
import { count, millis, percent, usd } from "./format";

type Comparison = RouterOutputs["experiments"]["compare"];
type Delta = Comparison["deltas"][number];

const METRICS: Record<Delta["metric"], { label: string; format: (value: number) => string }> = {
  pass_rate: { label: "Pass rate", format: (value) => percent(value) },
  first_attempt_pass_rate: { label: "First-attempt pass rate", format: (value) => percent(value) },
  escalation_rate: { label: "Escalation rate", format: (value) => percent(value) },
  cost_usd: { label: "Cost per sample", format: usd },
  tokens: { label: "Tokens per sample", format: count },
  latency_ms: { label: "Latency per sample", format: millis },
};

const CHANGES: Record<string, string> = {
  newly_failing: "newly failing",
  newly_passing: "newly passing",
  now_escalating: "now escalating",
  no_longer_escalating: "no longer escalating",
  unchanged: "unchanged",
  only_in_baseline: "only in the baseline",
  only_in_candidate: "only in the candidate",
};

/** Two experiments over one dataset side by side: verdict, deltas with their noise statements, charts, and what changed per case. */
export function ExperimentComparison({ baselineId, candidateId }: { baselineId: string; candidateId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.experiments.compare.queryOptions({ baselineId, candidateId }, { refetchInterval: 5000 }));
  if (query.isPending) return <p className="text-sm text-slate-500">Loading…</p>;
  if (query.error) return <p role="alert" className="text-sm text-red-700">{query.error.message}</p>;
  const comparison = query.data;
  const rates: BarGroup[] = comparison.deltas.filter((delta) => delta.metric.endsWith("rate")).map((delta) => ({ label: METRICS[delta.metric].label, baseline: delta.baseline, candidate: delta.candidate, format: METRICS[delta.metric].format }));
  const costs: BarGroup[] = comparison.deltas.filter((delta) => !delta.metric.endsWith("rate")).map((delta) => ({ label: METRICS[delta.metric].label, baseline: delta.baseline, candidate: delta.candidate, format: METRICS[delta.metric].format }));
  const changed = comparison.cases.filter((item) => item.change !== "unchanged");
  return (
    <div className="space-y-6">
      <div className="grid gap-3 sm:grid-cols-2">
        {[
          ["Baseline", comparison.baselineExperiment],
          ["Candidate", comparison.candidateExperiment],
        ].map(([role, experiment]) => {
          const header = experiment as Comparison["baselineExperiment"];
          return (
            <div key={role as string} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="text-xs uppercase tracking-wide text-slate-500">{role as string}</p>
              <Link href={`/experiments/${header.id}`} className="font-medium text-slate-900 underline">
                {header.name}
              </Link>
              <p className="text-slate-600">
                {header.workflow.name} v{header.workflow.version}, {header.dataset.name} v{header.dataset.version}, k = {header.k}, {header.status}
              </p>
            </div>
          );
        })}
      </div>
      <p role="status" data-testid="comparison-verdict" className={`rounded-md p-3 text-sm ${comparison.regression ? "bg-red-50 text-red-800" : "bg-green-50 text-green-800"}`}>
        {comparison.regression ? `Regression: ${comparison.regressionReasons.join(" ")}` : "No regression: no case that passed fails now, and the pass rate did not fall by more than noise."}
      </p>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold text-slate-900">Deltas</h2>
        <Table label="Deltas">
          <TableHead columns={["Metric", "Baseline", "Candidate", "Exceeds noise?"]} />
          <TableBody>
            {comparison.deltas.map((delta) => (
              <tr key={delta.metric} data-testid="comparison-delta">
                <Td>{METRICS[delta.metric].label}</Td>
                <Td className="tabular-nums">{delta.baseline === null ? "–" : METRICS[delta.metric].format(delta.baseline)}</Td>
                <Td className="tabular-nums">{delta.candidate === null ? "–" : METRICS[delta.metric].format(delta.candidate)}</Td>
                <Td className="text-slate-700">{delta.test.statement}</Td>
              </tr>
            ))}
          </TableBody>
        </Table>
        <p className="text-xs text-slate-500">
          Rates: two-proportion z-test; per-sample means: Welch&apos;s test (normal approximation); both two-sided at p &lt; 0.05, treating samples as independent (samples of one case are not, so
          read a borderline result with care).
        </p>
      </section>
      <div className="grid gap-6 md:grid-cols-2">
        <PairedBarChart title="Rates" groups={rates} />
        <PairedBarChart title="Cost, tokens and latency per sample" groups={costs} />
      </div>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold text-slate-900">Cases</h2>
        <p className="text-sm text-slate-600" data-testid="comparison-counts">
          {(["newly_failing", "newly_passing", "now_escalating", "unchanged"] as const).map((change) => `${comparison.counts[change]} ${CHANGES[change]}`).join(", ")}
        </p>
        <Table label="Case changes">
          <TableHead columns={["Case", "Change", "Baseline passed", "Candidate passed"]} />
          <TableBody>
            {(changed.length > 0 ? changed : comparison.cases).map((item) => (
              <tr key={item.key} data-testid="comparison-case" data-change={item.change}>
                <Td className="font-mono text-xs">{item.key}</Td>
                <Td>{CHANGES[item.change]}</Td>
                <Td className="tabular-nums">{item.baseline ? `${item.baseline.succeeded}/${item.baseline.scored}` : "–"}</Td>
                <Td className="tabular-nums">{item.candidate ? `${item.candidate.succeeded}/${item.candidate.scored}` : "–"}</Td>
              </tr>
            ))}
          </TableBody>
        </Table>
        {changed.length === 0 && <p className="text-sm text-slate-500">No case changed; every case is listed.</p>}
      </section>
    </div>
  );
}

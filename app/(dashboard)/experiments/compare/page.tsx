import type { Metadata } from "next";
import { ComparePicker } from "@/components/experiments/compare-picker";
import { ExperimentComparison } from "@/components/experiments/experiment-comparison";

export const metadata: Metadata = { title: "Compare experiments" };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/** /experiments/compare?a=<baseline id>&b=<candidate id>; with the baseline only, a choice among its dataset's experiments; with neither, a form asks for both. */
export default async function CompareExperimentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const a = single(params.a);
  const b = single(params.b);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Compare experiments</h1>
      {a && b ? (
        <ExperimentComparison baselineId={a} candidateId={b} />
      ) : a ? (
        <ComparePicker baselineId={a} />
      ) : (
        <form className="flex flex-wrap items-end gap-3" method="get">
          <label className="text-sm text-slate-700">
            Baseline experiment id
            <input name="a" defaultValue={a} required className="mt-1 block w-80 rounded-md border border-slate-300 px-2 py-1 font-mono text-xs" />
          </label>
          <label className="text-sm text-slate-700">
            Candidate experiment id
            <input name="b" defaultValue={b} required className="mt-1 block w-80 rounded-md border border-slate-300 px-2 py-1 font-mono text-xs" />
          </label>
          <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700">
            Compare
          </button>
        </form>
      )}
    </div>
  );
}

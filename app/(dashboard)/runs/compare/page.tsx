import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { RunComparison } from "@/components/runs/compare/run-comparison";
import { getQueryClient, HydrateClient, trpc } from "@/server/api/rsc";

export const metadata: Metadata = { title: "Compare runs" };

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === "TRPCError" && (error as { code?: unknown }).code === "NOT_FOUND";
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/** /runs/compare?a=<run id>&b=<run id>; without both ids, a form asks for them. */
export default async function CompareRunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const params = await searchParams;
  const a = single(params.a);
  const b = single(params.b);
  if (a && b) {
    try {
      await getQueryClient().fetchQuery(trpc.run.compare.queryOptions({ a, b }));
    } catch (error) {
      if (isNotFound(error)) notFound();
      throw error;
    }
  }
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Compare runs</h1>
      {a && b ? (
        <HydrateClient>
          <RunComparison a={a} b={b} />
        </HydrateClient>
      ) : (
        <form className="flex flex-wrap items-end gap-3" method="get">
          <label className="text-sm text-slate-700">
            Run A
            <input name="a" defaultValue={a} required className="mt-1 block w-80 rounded-md border border-slate-300 px-2 py-1 font-mono text-xs" />
          </label>
          <label className="text-sm text-slate-700">
            Run B
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

"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { CancelRunButton } from "./cancel-run-button";
import { ComparePicker } from "./compare-picker";

/** Cancel a run that has not ended (after a confirmation); start it again (same version, specification, variables, generator); compare it with another run. */
export function RunControls({ runId, ended, workflowName }: { runId: string; ended: boolean; workflowName: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const rerun = useMutation(trpc.run.rerun.mutationOptions({ onSuccess: ({ id }) => router.push(`/runs/${id}`) }));
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!ended && <CancelRunButton runId={runId} />}
      <button type="button" onClick={() => rerun.mutate({ id: runId })} disabled={rerun.isPending} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50">
        Re-run
      </button>
      <ComparePicker runId={runId} workflowName={workflowName} />
      {rerun.error && (
        <p role="alert" className="text-sm text-red-700">
          {rerun.error.message}
        </p>
      )}
    </div>
  );
}

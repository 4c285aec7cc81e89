"use client";

import { useRouter } from "next/navigation";
import { useId } from "react";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { AddToDatasetButton } from "@/components/datasets/add-to-dataset-button";
import { CancelRunButton } from "./cancel-run-button";
import { ComparePicker } from "./compare-picker";

/** Cancel a run that has not ended (after a confirmation); start it again (same version, specification, variables, generator); compare it with another run. */
export function RunControls({ runId, ended, workflowName }: { runId: string; ended: boolean; workflowName: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const rerun = useMutation(trpc.run.rerun.mutationOptions({ onSuccess: ({ id }) => router.push(`/runs/${id}`) }));
  const mayCancel = usePermission("cancel_run");
  const mayStart = usePermission("start_run");
  const reasonId = useId();
  // One note says it all: the roles that may not cancel are the ones that may not start runs.
  const reason = (!ended ? mayCancel.reason : null) ?? mayStart.reason;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!ended && <CancelRunButton runId={runId} refusal={mayCancel.reason} refusalId={reasonId} />}
      <button type="button" onClick={() => rerun.mutate({ id: runId })} disabled={rerun.isPending || !mayStart.allowed} title={mayStart.reason ?? undefined} aria-describedby={mayStart.reason ? reasonId : undefined} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50">
        Re-run
      </button>
      <ComparePicker runId={runId} workflowName={workflowName} />
      {ended && <AddToDatasetButton source={{ kind: "run", runId }} />}
      <RefusalNote id={reasonId} reason={reason} />
      {rerun.error && (
        <p role="alert" className="text-sm text-red-700">
          {rerun.error.message}
        </p>
      )}
    </div>
  );
}

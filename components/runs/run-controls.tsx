"use client";

import { useRouter } from "next/navigation";
import { useId } from "react";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";

/** Cancel a run that has not ended; start it again (same version, specification, variables, generator). */
export function RunControls({ runId, ended }: { runId: string; ended: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const cancel = useMutation(trpc.run.cancel.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.run.get.queryKey({ id: runId }) }) }));
  const rerun = useMutation(trpc.run.rerun.mutationOptions({ onSuccess: ({ id }) => router.push(`/runs/${id}`) }));
  const error = cancel.error ?? rerun.error;
  const mayCancel = usePermission("cancel_run");
  const mayStart = usePermission("start_run");
  const reasonId = useId();
  // One note says it all: the roles that may not cancel are the ones that may not start runs.
  const reason = (!ended ? mayCancel.reason : null) ?? mayStart.reason;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!ended && (
        <button type="button" onClick={() => cancel.mutate({ id: runId })} disabled={cancel.isPending || !mayCancel.allowed} title={mayCancel.reason ?? undefined} aria-describedby={mayCancel.reason ? reasonId : undefined} className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-50">
          Cancel
        </button>
      )}
      <button type="button" onClick={() => rerun.mutate({ id: runId })} disabled={rerun.isPending || !mayStart.allowed} title={mayStart.reason ?? undefined} aria-describedby={mayStart.reason ? reasonId : undefined} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50">
        Re-run
      </button>
      <RefusalNote id={reasonId} reason={reason} />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error.message}
        </p>
      )}
    </div>
  );
}

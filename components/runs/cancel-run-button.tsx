"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ModalDialog } from "./modal-dialog";

/**
 * Cancel, after a confirmation: the run stops within about a second and cannot be resumed.
 * `refusal` (with the id of the note that shows it) disables it for a role that may not cancel.
 */
export function CancelRunButton({ runId, refusal = null, refusalId }: { runId: string; refusal?: string | null; refusalId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const cancel = useMutation(
    trpc.run.cancel.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        return queryClient.invalidateQueries({ queryKey: trpc.run.get.queryKey({ id: runId }) });
      },
    }),
  );
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        disabled={cancel.isPending || refusal !== null}
        title={refusal ?? undefined}
        aria-describedby={refusal ? refusalId : undefined}
        className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-50">
        Cancel run
      </button>
      {open && (
        <ModalDialog title="Cancel this run?" className="max-w-md" onClose={() => setOpen(false)}>
          {(close) => (
            <div className="space-y-4 text-sm text-slate-700">
              <p>The run stops where it is, within about a second, and ends cancelled in your name. Whatever it is waiting for (a model, a guard, a person) is abandoned; a cancelled run cannot be resumed, only run again.</p>
              {cancel.error && (
                <p role="alert" className="text-red-700">
                  {cancel.error.message}
                </p>
              )}
              <div className="flex justify-end gap-2">
                <button type="button" onClick={close} className="rounded-md border border-slate-300 px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
                  Keep running
                </button>
                <button type="button" onClick={() => cancel.mutate({ id: runId })} disabled={cancel.isPending} className="rounded-md bg-red-700 px-3 py-1.5 font-medium text-white hover:bg-red-800 disabled:opacity-50">
                  Yes, cancel the run
                </button>
              </div>
            </div>
          )}
        </ModalDialog>
      )}
    </>
  );
}

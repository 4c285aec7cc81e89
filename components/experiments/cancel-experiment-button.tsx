"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePermission } from "@/components/auth/signed-in-user";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ModalDialog } from "@/components/runs/modal-dialog";
import { Button } from "@/components/ui/button";

/** Cancel, after a confirmation: no more runs start, and the runs in flight are cancelled. */
export function CancelExperimentButton({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permission = usePermission("cancel_experiment");
  const [open, setOpen] = useState(false);
  const cancel = useMutation(
    trpc.experiments.cancel.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.experiments.get.queryKey({ id }) });
      },
    }),
  );
  return (
    <>
      <Button variant="danger" disabled={!permission.allowed} title={permission.reason ?? undefined} onClick={() => setOpen(true)}>
        Cancel experiment
      </Button>
      {open && (
        <ModalDialog title="Cancel this experiment?" className="max-w-md" onClose={() => setOpen(false)}>
          {(close) => (
            <div className="space-y-4 text-sm text-slate-700">
              <p>No more runs start, and the runs in flight are cancelled in your name. Samples already ended keep their outcome; cancelled ones do not count in the results.</p>
              {cancel.error && (
                <p role="alert" className="text-red-700">
                  {cancel.error.message}
                </p>
              )}
              <div className="flex justify-end gap-2">
                <Button onClick={close}>Keep running</Button>
                <Button variant="primary" disabled={cancel.isPending} onClick={() => cancel.mutate({ id })}>
                  Yes, cancel the experiment
                </Button>
              </div>
            </div>
          )}
        </ModalDialog>
      )}
    </>
  );
}

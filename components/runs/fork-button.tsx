"use client";

import { useId, useState } from "react";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { ForkForm } from "./fork-form";
import { ModalDialog } from "./modal-dialog";

/** "Fork" on an attempt: a modal <dialog> with the edit a new run starts from. */
export function ForkButton({ runId, artifactId, label }: { runId: string; artifactId: string; label: string }) {
  const [open, setOpen] = useState(false);
  const { allowed, reason } = usePermission("fork_run");
  const reasonId = useId();
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        disabled={!allowed}
        title={reason ?? undefined}
        aria-describedby={reason ? reasonId : undefined}
        className="rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-40"
      >
        Fork
      </button>
      <RefusalNote id={reasonId} reason={reason} />
      {open && allowed && (
        <ModalDialog title={`Fork from ${label}`} className="max-w-2xl" onClose={() => setOpen(false)}>
          {(close) => <ForkForm runId={runId} artifactId={artifactId} onCancel={close} />}
        </ModalDialog>
      )}
    </>
  );
}

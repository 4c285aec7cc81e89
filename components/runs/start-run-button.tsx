"use client";

import { useId, useState } from "react";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { StartRunDialog } from "./start-run-dialog";
import type { WorkflowSummary } from "./start-run-form";

/** "Run" on a workflow: opens the start-run dialog, mounted afresh (empty of old errors) each time. */
export function StartRunButton({ workflow }: { workflow: WorkflowSummary }) {
  const [open, setOpen] = useState(false);
  const { allowed, reason } = usePermission("start_run");
  const reasonId = useId();
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        disabled={!allowed}
        title={reason ?? undefined}
        aria-describedby={reason ? reasonId : undefined}
        className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-40"
      >
        Run
      </button>
      <RefusalNote id={reasonId} reason={reason} />
      {open && allowed && <StartRunDialog workflow={workflow} onClose={() => setOpen(false)} />}
    </>
  );
}

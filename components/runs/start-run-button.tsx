"use client";

import { useState } from "react";
import { StartRunDialog } from "./start-run-dialog";
import type { WorkflowSummary } from "./start-run-form";

/** "Run" on a workflow: opens the start-run dialog, mounted afresh (empty of old errors) each time. */
export function StartRunButton({ workflow }: { workflow: WorkflowSummary }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700"
      >
        Run
      </button>
      {open && <StartRunDialog workflow={workflow} onClose={() => setOpen(false)} />}
    </>
  );
}

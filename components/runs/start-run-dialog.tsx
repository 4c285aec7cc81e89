"use client";

import { useEffect, useId, useRef } from "react";
import { StartRunForm, type WorkflowSummary } from "./start-run-form";

/** A modal <dialog>: the browser traps focus, Escape closes it, and focus returns to the opener. */
export function StartRunDialog({ workflow, onClose }: { workflow: WorkflowSummary; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-full max-w-xl rounded-lg border border-slate-200 bg-white p-6 text-left shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id={titleId} className="mb-4 text-lg font-semibold text-slate-900">
        Run {workflow.name}
        {workflow.latestVersion !== null && <span className="ml-2 text-sm font-normal text-slate-500">v{workflow.latestVersion}</span>}
      </h2>
      <StartRunForm workflow={workflow} onCancel={() => dialogRef.current?.close()} />
    </dialog>
  );
}

"use client";

import { ModalDialog } from "./modal-dialog";
import { StartRunForm, type WorkflowSummary } from "./start-run-form";

/** The Run dialog of a workflow: its name and latest version, and the start-run form. */
export function StartRunDialog({ workflow, onClose }: { workflow: WorkflowSummary; onClose: () => void }) {
  const title = (
    <>
      Run {workflow.name}
      {workflow.latestVersion !== null && <span className="ml-2 text-sm font-normal text-slate-500">v{workflow.latestVersion}</span>}
    </>
  );
  return (
    <ModalDialog title={title} className="max-w-xl" onClose={onClose}>
      {(close) => <StartRunForm workflow={workflow} onCancel={close} />}
    </ModalDialog>
  );
}

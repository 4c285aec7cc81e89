"use client";

import { ModalDialog } from "./modal-dialog";
import { StartRunForm, type WorkflowSummary } from "./start-run-form";

/**
 * The Run dialog of a workflow: its name, the version the run uses (the latest unless `version`
 * says another), and the start-run form. `versionNote` adds why that version, e.g. that unsaved
 * changes are not in it.
 */
export function StartRunDialog({ workflow, version, versionNote, onClose }: { workflow: WorkflowSummary; version?: number; versionNote?: string; onClose: () => void }) {
  const runs = version ?? workflow.latestVersion;
  const title = (
    <>
      Run {workflow.name}
      {runs !== null && <span className="ml-2 text-sm font-normal text-slate-500">v{runs}</span>}
    </>
  );
  return (
    <ModalDialog title={title} className="max-w-xl" onClose={onClose}>
      {(close) => (
        <>
          {runs !== null && (
            <p className="mb-3 text-sm text-slate-700" data-testid="run-version">
              Runs version {runs}
              {runs === workflow.latestVersion ? ", the latest saved version" : ""}.{versionNote ? ` ${versionNote}` : ""}
            </p>
          )}
          <StartRunForm workflow={workflow} version={version} onCancel={close} />
        </>
      )}
    </ModalDialog>
  );
}

"use client";

import { useId, useState } from "react";
import { RefusalNote } from "@/components/auth/refusal-note";
import { usePermission } from "@/components/auth/signed-in-user";
import { ModalDialog } from "@/components/runs/modal-dialog";
import { StartRunDialog } from "@/components/runs/start-run-dialog";
import type { WorkflowSummary } from "@/components/runs/start-run-form";

type Step = { readonly kind: "closed" } | { readonly kind: "choose" } | { readonly kind: "run"; readonly version: number; readonly note?: string };

const BUTTON = "rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-40";

/**
 * Run in the editor. A run always uses a saved version, and the dialog says which one. With
 * unsaved changes it first asks: save them and run the new version, or run the saved one without
 * them. `save` stores the document and resolves to the version that holds it; `cannotSave` says
 * why saving is not possible now (problems in the document, a check under way).
 */
export function EditorRunButton({ workflow, unsaved, cannotSave, save }: { workflow: WorkflowSummary | undefined; unsaved: boolean; cannotSave: string | null; save: () => Promise<number> }) {
  const [step, setStep] = useState<Step>({ kind: "closed" });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { allowed, reason } = usePermission("start_run");
  const reasonId = useId();
  const latest = workflow?.latestVersion ?? null;
  if (!allowed) {
    return (
      <>
        <button type="button" disabled title={reason ?? undefined} aria-describedby={reasonId} className={BUTTON}>
          Run
        </button>
        <RefusalNote id={reasonId} reason={reason} />
      </>
    );
  }
  if (!workflow || latest === null) {
    return (
      <button type="button" disabled title="Save the workflow first" className={BUTTON}>
        Run
      </button>
    );
  }

  async function saveAndRun(close: () => void) {
    setSaving(true);
    setError(null);
    try {
      const version = await save();
      close();
      setStep({ kind: "run", version });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <button type="button" onClick={() => setStep(unsaved ? { kind: "choose" } : { kind: "run", version: latest })} title={unsaved ? `Unsaved changes: choose to save them first or to run version ${latest}` : `Runs version ${latest}`} className={BUTTON}>
        Run
      </button>
      {step.kind === "choose" && (
        <ModalDialog title="Run with unsaved changes?" className="max-w-lg" onClose={() => setStep((current) => (current.kind === "choose" ? { kind: "closed" } : current))}>
          {(close) => (
            <div className="space-y-3 text-sm text-slate-700" data-testid="unsaved-run-choice">
              <p>
                A run uses a saved version. Version {latest} is the latest saved one; your changes since then are not in it.
              </p>
              {cannotSave && <p className="text-amber-800">Cannot save now: {cannotSave}</p>}
              {error && (
                <p role="alert" className="text-red-700">
                  {error}
                </p>
              )}
              <div className="flex flex-wrap justify-end gap-2">
                <button type="button" onClick={close} className="rounded-md px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100">
                  Cancel
                </button>
                <button
                  type="button"
                  onClick={() => {
                    close();
                    setStep({ kind: "run", version: latest, note: "Your unsaved changes are not in it, and leaving this page for the run discards them." });
                  }}
                  className="rounded-md border border-slate-300 px-3 py-1.5 font-medium"
                >
                  Run saved version {latest}
                </button>
                <button type="button" disabled={cannotSave !== null || saving} onClick={() => void saveAndRun(close)} className={BUTTON}>
                  {saving ? "Saving…" : "Save and run"}
                </button>
              </div>
            </div>
          )}
        </ModalDialog>
      )}
      {step.kind === "run" && <StartRunDialog workflow={workflow} version={step.version} versionNote={step.note} onClose={() => setStep({ kind: "closed" })} />}
    </>
  );
}

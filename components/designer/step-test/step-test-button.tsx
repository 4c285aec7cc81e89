"use client";

import { useState } from "react";
import { ModalDialog } from "@/components/runs/modal-dialog";
import { SMALL_BUTTON } from "../fields";
import { StepTestForm } from "./step-test-form";
import { useStepTestDraft } from "./step-test-scope";

/**
 * "Test this step": runs the selected action-pair step of the draft on its own, like n8n's
 * single-node execution, in a dialog. Nothing about the workflow changes and no run is started.
 */
export function StepTestButton({ step, state, actionPair }: { step: string; state: string; actionPair: boolean }) {
  const draft = useStepTestDraft();
  const [open, setOpen] = useState(false);
  if (!draft) return null;
  return (
    <>
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={!actionPair}
        title={actionPair ? "Run this step alone with inputs you give, without starting a run" : "Only action_pair steps (a generator with guards) can be tested"}
        onClick={() => setOpen(true)}
      >
        Test this step
      </button>
      {open && (
        <ModalDialog title={`Test step ${step}`} className="max-w-4xl" onClose={() => setOpen(false)}>
          {(close) => <StepTestForm draft={draft} step={step} state={state} onClose={close} />}
        </ModalDialog>
      )}
    </>
  );
}

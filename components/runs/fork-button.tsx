"use client";

import { useEffect, useId, useRef, useState } from "react";
import { ForkForm } from "./fork-form";

/** "Fork" on an attempt: a modal <dialog> with the edit a new run starts from. */
export function ForkButton({ runId, artifactId, label }: { runId: string; artifactId: string; label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className="rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50">
        Fork
      </button>
      {open && <ForkDialog runId={runId} artifactId={artifactId} label={label} onClose={() => setOpen(false)} />}
    </>
  );
}

function ForkDialog({ runId, artifactId, label, onClose }: { runId: string; artifactId: string; label: string; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={dialogRef} aria-labelledby={titleId} onClose={onClose} className="m-auto w-full max-w-2xl rounded-lg border border-slate-200 bg-white p-6 text-left shadow-xl backdrop:bg-slate-900/40">
      <h2 id={titleId} className="mb-4 text-lg font-semibold text-slate-900">
        Fork from {label}
      </h2>
      <ForkForm runId={runId} artifactId={artifactId} onCancel={() => dialogRef.current?.close()} />
    </dialog>
  );
}

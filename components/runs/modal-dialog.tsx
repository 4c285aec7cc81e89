"use client";

import { useEffect, useId, useState, type ReactNode } from "react";

/**
 * A modal <dialog>: the browser traps focus, Escape closes it, and focus returns to the opener.
 * `children` gets `close`, for a Cancel button; `onClose` runs however it closes.
 */
export function ModalDialog({ title, className, onClose, children }: { title: ReactNode; className: string; onClose: () => void; children: (close: () => void) => ReactNode }) {
  const [dialog, setDialog] = useState<HTMLDialogElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    if (dialog && !dialog.open) dialog.showModal();
  }, [dialog]);
  return (
    <dialog
      ref={setDialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className={`m-auto w-full ${className} rounded-lg border border-slate-200 bg-white p-6 text-left shadow-xl backdrop:bg-slate-900/40`}
    >
      <h2 id={titleId} className="mb-4 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children(() => dialog?.close())}
    </dialog>
  );
}

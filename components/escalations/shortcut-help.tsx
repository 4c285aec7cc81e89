"use client";

import { useEffect, useRef } from "react";
import { REVIEW_SHORTCUTS } from "./review-keys";

/** The review page's keyboard shortcuts, opened with `?`; Escape or `?` closes it. */
export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  return (
    <div className="fixed inset-0 z-30 flex items-center justify-center bg-slate-900/40 p-4" onClick={onClose}>
      <div
        ref={panel}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcut-help-title"
        className="w-full max-w-sm space-y-3 rounded-lg bg-white p-5 shadow-xl outline-none"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === "Escape" || event.key === "?") {
            event.preventDefault();
            onClose();
          }
        }}
      >
        <h2 id="shortcut-help-title" className="text-lg font-semibold text-slate-900">
          Keyboard shortcuts
        </h2>
        <dl className="space-y-1.5 text-sm" data-testid="shortcut-list">
          {REVIEW_SHORTCUTS.map((shortcut) => (
            <div key={shortcut.command} className="flex items-baseline gap-3">
              <dt className="w-12 shrink-0">
                {shortcut.keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && " "}
                    <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">{key}</kbd>
                  </span>
                ))}
              </dt>
              <dd className="text-slate-700">{shortcut.label}</dd>
            </div>
          ))}
        </dl>
        <p className="text-xs text-slate-500">Not while typing in a field. A decision always asks to confirm first.</p>
        <div className="flex justify-end">
          <button type="button" onClick={onClose} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium">
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

"use client";

import type { RouterOutputs } from "@/server/api/root";
import { count } from "./verdict-summary";

export interface SavedNoteProps {
  readonly text: string;
  /** The warnings the save answered with: saved all the same, said beside the note. */
  readonly warnings: RouterOutputs["workflow"]["save"]["warnings"];
}


/** What a save did ("Saved as version 2"), and the warnings it came back with, in amber. */
export function SavedNote({ text, warnings }: SavedNoteProps) {
  return (
    <div role="status" data-testid="saved-note" className="text-sm">
      <p className="text-emerald-700">
        {text}
        {warnings.length > 0 && <span className="text-amber-800">, with {count(warnings.length, "warning")}:</span>}
      </p>
      {warnings.length > 0 && (
        <ul aria-label="Warnings of the save" className="mt-1 space-y-1">
          {warnings.map((warning, index) => (
            <li key={index} data-testid="saved-warning" className="rounded bg-amber-50 px-2 py-1 font-mono text-xs text-amber-900">
              warning: {warning.line !== undefined ? `line ${warning.line}${warning.column !== undefined ? `:${warning.column}` : ""} · ` : ""}
              {warning.path}: {warning.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

"use client";

import { useMemo, useState } from "react";
import { truncateForDisplay } from "@/components/dashboard/truncate-for-display";

const PREVIEW_LENGTH = 120;

/**
 * A payload as one line of JSON, expandable to the whole of it. The full text is only rendered
 * while open: the page refreshes every second and payloads hold whole generated files.
 */
export function LedgerPayload({ payload }: { payload: Record<string, unknown> }) {
  const [open, setOpen] = useState(false);
  // Refetches keep unchanged entries' objects (structural sharing), so this runs once per entry.
  const oneLine = useMemo(() => JSON.stringify(payload), [payload]);
  if (oneLine.length <= PREVIEW_LENGTH) return <code className="break-all font-mono text-xs text-slate-700">{oneLine}</code>;
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer break-all font-mono text-xs text-slate-700">{truncateForDisplay(oneLine, PREVIEW_LENGTH)}</summary>
      {open && (
        <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs text-slate-800">
          {JSON.stringify(payload, null, 2)}
        </pre>
      )}
    </details>
  );
}

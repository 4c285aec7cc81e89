import type { DiffLine } from "@/server/services/escalations/diff-lines";

const KIND = {
  added: { sign: "+", className: "bg-emerald-950/60 text-emerald-200" },
  removed: { sign: "-", className: "bg-red-950/60 text-red-200" },
  same: { sign: " ", className: "text-slate-300" },
} as const;

/** A line diff from an earlier attempt to the escalated artifact. */
export function DiffView({ lines, label }: { lines: readonly DiffLine[]; label: string }) {
  return (
    <pre aria-label={label} data-testid="diff-view" className="overflow-x-auto rounded-md bg-slate-900 py-3 font-mono text-xs leading-5">
      <code className="table min-w-full">
        {lines.map((line, index) => (
          <span key={index} className={`table-row ${KIND[line.kind].className}`} data-kind={line.kind}>
            <span aria-hidden="true" className="table-cell select-none px-3 text-slate-500">
              {KIND[line.kind].sign}
            </span>
            <span className="table-cell whitespace-pre pr-4">{line.text}</span>
          </span>
        ))}
      </code>
    </pre>
  );
}

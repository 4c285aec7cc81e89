import type { ReactNode } from "react";

/** One chart of the Metrics page: a titled figure, with a sentence saying what is counted. */
export function ChartCard({ id, title, note, children }: { id: string; title: string; note: string; children: ReactNode }) {
  return (
    <figure aria-labelledby={`${id}-title`} data-testid={id} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <figcaption className="mb-3 text-xs text-slate-500">{note}</figcaption>
      {children}
    </figure>
  );
}

import type { ReactNode } from "react";

export function SectionCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-6 rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 id={`${id}-title`} className="border-b border-slate-200 px-5 py-3 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

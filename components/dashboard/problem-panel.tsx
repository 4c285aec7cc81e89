import type { ReactNode } from "react";

/** The frame shared by the error and not-found pages: a title, one sentence, and actions. */
export function ProblemPanel({ title, children, actions }: { title: string; children: ReactNode; actions: ReactNode }) {
  return (
    <div role="alert" className="mx-auto mt-16 max-w-lg rounded-lg border border-slate-200 bg-white p-8 shadow-sm" data-testid="problem-panel">
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      <div className="mt-2 text-sm leading-6 text-slate-600">{children}</div>
      <div className="mt-6 flex gap-3">{actions}</div>
    </div>
  );
}

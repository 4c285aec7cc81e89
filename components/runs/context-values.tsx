import type { RunDetail } from "./types";

/** The run's values for the workflow's context variables, when it was given any. */
export function ContextValues({ values }: { values: RunDetail["contextValues"] }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return null;
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 border-t border-slate-100 px-5 py-3 text-xs">
      {entries.map(([name, value]) => (
        <div key={name} className="flex gap-1.5">
          <dt className="font-mono text-slate-500">{name}</dt>
          <dd className="font-mono text-slate-900">{JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

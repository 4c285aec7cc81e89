import type { RunLedger } from "./types";

/** Counts over the whole ledger, and how much of it the table leaves off. */
export function LedgerSummary({ ledger }: { ledger: RunLedger }) {
  const types = Object.entries(ledger.summary.countByType);
  return (
    <div className="space-y-2 border-b border-slate-200 px-5 py-3 text-sm" data-testid="ledger-summary">
      <p className="text-slate-700">
        <span className="font-medium tabular-nums text-slate-900">{ledger.total}</span> {ledger.total === 1 ? "entry" : "entries"},{" "}
        <span className="font-medium tabular-nums text-slate-900" data-testid="ledger-model-calls">
          {ledger.summary.modelCalls}
        </span>{" "}
        model {ledger.summary.modelCalls === 1 ? "call" : "calls"}
        {ledger.omitted > 0 && (
          <span className="text-slate-500" data-testid="ledger-omitted">
            {" "}
            — showing the newest {ledger.entries.length}; {ledger.omitted} older {ledger.omitted === 1 ? "entry is" : "entries are"} left off
          </span>
        )}
      </p>
      {types.length > 0 && (
        <ul className="flex flex-wrap gap-1.5">
          {types.map(([type, count]) => (
            <li key={type} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700">
              {type} <span className="tabular-nums text-slate-500">×{count}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

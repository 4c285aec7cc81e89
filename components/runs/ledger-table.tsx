import { LedgerPayload } from "./ledger-payload";
import type { RunLedgerEntry } from "./types";

function formatTime(date: Date): string {
  return date.toISOString().slice(11, 23);
}

/** The ledger in seq order: who wrote what, in which turn epoch. */
export function LedgerTable({ entries }: { entries: RunLedgerEntry[] }) {
  if (entries.length === 0) {
    return <p className="px-5 py-6 text-sm text-slate-600">The ledger is empty: nothing has happened in this run yet.</p>;
  }
  return (
    <div className="max-h-[40rem] overflow-auto">
      <table className="min-w-full text-left text-sm" data-testid="ledger-table">
        <thead className="sticky top-0 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-2 font-medium">Seq</th>
            <th scope="col" className="px-3 py-2 font-medium">Time (UTC)</th>
            <th scope="col" className="px-3 py-2 font-medium">Actor</th>
            <th scope="col" className="px-3 py-2 font-medium">Type</th>
            <th scope="col" className="px-3 py-2 font-medium">Epoch</th>
            <th scope="col" className="px-5 py-2 font-medium">Payload</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((entry) => (
            <tr key={entry.seq} data-testid="ledger-row" data-type={entry.type} className="align-top">
              <td className="px-5 py-2 tabular-nums text-slate-500">{entry.seq}</td>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-xs text-slate-500" title={entry.createdAt.toISOString()}>
                {formatTime(entry.createdAt)}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-slate-700">{entry.actor}</td>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-xs text-slate-900">{entry.type}</td>
              <td className="px-3 py-2 tabular-nums text-slate-500">{entry.epoch}</td>
              <td className="max-w-xl px-5 py-2">
                <LedgerPayload payload={entry.payload} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { ReactNode } from "react";

/**
 * The numbers behind a chart, in a table a screen reader (or a curious person) can read:
 * folded away under the chart, so the chart stays the first thing people see.
 */
export function FiguresTable({ label, testId, columns, rows }: { label: string; testId: string; columns: readonly string[]; rows: readonly { key: string; cells: readonly ReactNode[] }[] }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-slate-600 hover:text-slate-900">Show the figures</summary>
      <div className="mt-2 overflow-x-auto">
        <table className="min-w-full text-left text-xs tabular-nums" aria-label={label} data-testid={testId}>
          <thead className="text-slate-500">
            <tr>
              {columns.map((column) => (
                <th key={column} className="px-2 py-1 font-medium">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.key} data-key={row.key}>
                {row.cells.map((cell, index) => (
                  <td key={columns[index]} className="px-2 py-1">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/** A bordered, horizontally scrollable table; `label` is its accessible name. */
export function Table({ label, children, className = "" }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={`overflow-x-auto rounded-lg border border-slate-200 bg-white ${className}`}>
      <table className="min-w-full text-left text-sm" aria-label={label}>
        {children}
      </table>
    </div>
  );
}

export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
      <tr>
        {columns.map((column, index) => (
          <Th key={`${column}-${index}`}>{column}</Th>
        ))}
      </tr>
    </thead>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th className={`px-4 py-2 font-medium ${className}`} {...props} />;
}

export function TableBody(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className="divide-y divide-slate-100" {...props} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-4 py-2 align-top ${className}`} {...props} />;
}

/** The line under a table that says why it is empty. */
export function EmptyRows({ children }: { children: ReactNode }) {
  return <p className="px-4 py-6 text-sm text-slate-500">{children}</p>;
}

import type { SelectHTMLAttributes } from "react";

export const fieldClass = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm font-normal";

export interface SelectOption {
  readonly value: string;
  readonly label?: string;
}

/** A labelled select; `options` in order, the label text is also its accessible name. */
export function Select({ label, options, className = "", ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: readonly SelectOption[] }) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium">
      {label}
      <select className={`${fieldClass} ${className}`} {...props}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label ?? option.value}
          </option>
        ))}
      </select>
    </label>
  );
}

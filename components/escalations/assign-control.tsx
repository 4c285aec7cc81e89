"use client";

import { useId } from "react";

/**
 * Who has a pending escalation, and a way to hand it to another reviewer or release it. The list
 * holds only people who can decide (enabled reviewers and admins), so an assignment never parks
 * an item with someone who cannot act on it.
 */
export function AssignControl({
  holder,
  reviewers,
  disabled,
  onAssign,
}: {
  holder: string | null;
  reviewers: readonly string[];
  disabled: boolean;
  onAssign: (assignee: string | null) => void;
}) {
  const id = useId();
  const options = holder && !reviewers.includes(holder) ? [holder, ...reviewers] : reviewers;
  return (
    <span className="inline-flex items-center gap-1">
      <label htmlFor={id} className="sr-only">
        Assign
      </label>
      <select
        id={id}
        value={holder ?? ""}
        disabled={disabled}
        onClick={(event) => event.stopPropagation()}
        onChange={(event) => onAssign(event.target.value || null)}
        className="max-w-44 rounded-md border border-slate-300 bg-white px-1.5 py-1 text-xs"
      >
        <option value="">unassigned</option>
        {options.map((email) => (
          <option key={email} value={email}>
            {email}
          </option>
        ))}
      </select>
    </span>
  );
}

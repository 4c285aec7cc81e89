"use client";

import { useState, type ReactNode } from "react";

/** Small labelled form controls for the inspector; each label is the control's accessible name. */

export const INPUT = "w-full rounded border border-slate-300 px-2 py-1 text-xs";

export function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = `inspector-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <div className="space-y-0.5">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/** Text that changes the document on every key (one undo step per field, see history.ts). */
export function LiveText({ label, value, onChange, multiline = false }: { label: string; value: string; onChange: (value: string) => void; multiline?: boolean }) {
  return (
    <Field label={label}>
      {(id) =>
        multiline ? (
          <textarea id={id} rows={3} value={value} onChange={(event) => onChange(event.target.value)} className={`${INPUT} font-mono`} />
        ) : (
          <input id={id} value={value} onChange={(event) => onChange(event.target.value)} className={INPUT} />
        )
      }
    </Field>
  );
}

/**
 * Text applied on Enter or when leaving the field, for names: a half-typed name could clash with
 * another one, and renames ripple through the document. Escape puts the current value back.
 */
export function CommitText({ label, value, onCommit }: { label: string; value: string; onCommit: (value: string) => void }) {
  return <CommitTextInner key={value} label={label} value={value} onCommit={onCommit} />;
}

function CommitTextInner({ label, value, onCommit }: { label: string; value: string; onCommit: (value: string) => void }) {
  const [draft, setDraft] = useState(value);
  const commit = () => draft !== value && onCommit(draft);
  return (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === "Enter") commit();
            if (event.key === "Escape") setDraft(value);
          }}
          className={INPUT}
        />
      )}
    </Field>
  );
}

export function Select({ label, value, options, onChange }: { label: string; value: string; options: readonly (string | readonly [string, string])[]; onChange: (value: string) => void }) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={INPUT}>
          {options.map((option) => {
            const [optionValue, text] = typeof option === "string" ? [option, option] : option;
            return (
              <option key={optionValue} value={optionValue}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

export function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: () => void }) {
  return (
    <label className="flex items-center gap-2 text-xs text-slate-700">
      <input type="checkbox" checked={checked} onChange={onChange} />
      {label}
    </label>
  );
}

export const SMALL_BUTTON = "rounded border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-slate-50";

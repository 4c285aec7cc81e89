"use client";

import { useState } from "react";
import { Field, INPUT } from "./fields";
import type { Json } from "./workflow-draft";

/**
 * A JSON value as text. Text that does not parse (or that `problemOf` refuses) stays in the field
 * with its error under it; the document changes only when it is right. Empty text, when `optional`,
 * removes the value.
 */
export function JsonText({ label, value, onChange, problemOf = () => null, optional = false, rows = 2 }: { label: string; value: Json | undefined; onChange: (value: Json | undefined) => void; problemOf?: (value: Json) => string | null; optional?: boolean; rows?: number }) {
  const external = value === undefined ? "" : JSON.stringify(value);
  const [text, setText] = useState(() => show(value));
  const [shown, setShown] = useState(external);
  // The value changed elsewhere (undo, the YAML tab): show it instead of the local text.
  if (shown !== external) {
    setShown(external);
    setText(show(value));
  }
  const read = (source: string): { value?: Json; error: string | null } => {
    if (optional && source.trim() === "") return { error: null };
    try {
      const parsed = JSON.parse(source) as Json;
      return { value: parsed, error: problemOf(parsed) };
    } catch (error) {
      return { error: `Not JSON: ${(error as Error).message}` };
    }
  };
  const { error } = read(text);
  return (
    <Field label={label}>
      {(id) => (
        <>
          <textarea
            id={id}
            rows={rows}
            value={text}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setText(event.target.value);
              const next = read(event.target.value);
              if (next.error !== null) return;
              setShown(next.value === undefined ? "" : JSON.stringify(next.value));
              onChange(next.value);
            }}
            className={`${INPUT} font-mono ${error ? "border-red-500" : ""}`}
          />
          {error && (
            <p id={`${id}-error`} role="alert" className="text-xs text-red-700">
              {error}
            </p>
          )}
        </>
      )}
    </Field>
  );
}

function show(value: Json | undefined): string {
  return value === undefined ? "" : JSON.stringify(value, null, 1);
}

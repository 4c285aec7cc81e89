"use client";

import { useState } from "react";
import { isPlainObject, type Json, type JsonObject } from "./workflow-draft";
import { Field, INPUT, SMALL_BUTTON, Select } from "./fields";
import { GUARD_KINDS } from "./kinds";

/** A step's guards: each one's kind and its other options as JSON; add and remove. */
export function GuardList({ guards, onAdd, onRemove, onSet }: { guards: readonly Json[]; onAdd: (kind: string) => void; onRemove: (index: number) => void; onSet: (index: number, kind: string, options: JsonObject, field: "kind" | "options") => void }) {
  return (
    <fieldset className="space-y-2 rounded border border-slate-200 p-2">
      <legend className="px-1 text-xs font-semibold text-slate-700">Guards</legend>
      {guards.map((guard, index) => {
        const { kind, ...options } = isPlainObject(guard) ? guard : { kind: "" };
        const label = `Guard ${index + 1}`;
        return (
          <div key={index} className="space-y-1 rounded bg-slate-50 p-2" data-testid="guard">
            <div className="flex items-end gap-2">
              <div className="flex-1">
                <Select label={`${label} kind`} value={typeof kind === "string" ? kind : ""} options={GUARD_KINDS} onChange={(next) => onSet(index, next, options, "kind")} />
              </div>
              <button type="button" className={SMALL_BUTTON} aria-label={`Remove guard ${index + 1}`} onClick={() => onRemove(index)}>
                Remove
              </button>
            </div>
            <GuardOptions label={`${label} options (JSON)`} options={options} onChange={(next) => onSet(index, typeof kind === "string" ? kind : "", next, "options")} />
          </div>
        );
      })}
      <button type="button" className={SMALL_BUTTON} onClick={() => onAdd("syntax")}>
        Add guard
      </button>
    </fieldset>
  );
}

/**
 * The options as JSON text. Text that is not a JSON object stays in the field with its error
 * under it; the document changes only when it parses.
 */
function GuardOptions({ label, options, onChange }: { label: string; options: JsonObject; onChange: (options: JsonObject) => void }) {
  const external = JSON.stringify(options);
  const [text, setText] = useState(() => (Object.keys(options).length ? JSON.stringify(options, null, 1) : "{}"));
  const [shown, setShown] = useState(external);
  // The options changed elsewhere (undo, the YAML tab): show them instead of the local text.
  if (shown !== external) {
    setShown(external);
    setText(JSON.stringify(options, null, 1));
  }
  const error = errorOf(text);
  return (
    <Field label={label}>
      {(id) => (
        <>
          <textarea
            id={id}
            rows={2}
            value={text}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setText(event.target.value);
              if (errorOf(event.target.value) === null) {
                const parsed = JSON.parse(event.target.value) as JsonObject;
                setShown(JSON.stringify(parsed));
                onChange(parsed);
              }
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

function errorOf(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Not JSON: ${(error as Error).message}`;
  }
  if (!isPlainObject(value)) return "Options must be a JSON object, like {\"language\": \"python\"}";
  if ("kind" in value) return "Choose the kind from the list, not in the options";
  return null;
}

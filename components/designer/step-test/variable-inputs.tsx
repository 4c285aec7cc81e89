"use client";

import { INPUT } from "../fields";
import type { DraftVariable, VariableValue } from "./draft-inputs";

/** The workflow's declared context variables, each edited in the type of its default. */
export function VariableInputs({ variables, values, onChange }: { variables: readonly DraftVariable[]; values: Readonly<Record<string, VariableValue>>; onChange: (name: string, value: VariableValue) => void }) {
  if (variables.length === 0) return null;
  return (
    <fieldset className="space-y-1">
      <legend className="text-xs font-semibold text-slate-700">Variables</legend>
      <div className="grid grid-cols-2 gap-2">
        {variables.map(({ name, value: initial }) => {
          const value = values[name] ?? initial;
          const id = `step-test-variable-${name}`;
          return (
            <div key={name} className="space-y-0.5">
              <label htmlFor={id} className="block text-xs font-medium text-slate-600">
                {name}
              </label>
              {typeof initial === "boolean" ? (
                <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(name, event.target.checked)} />
              ) : typeof initial === "number" ? (
                <input id={id} type="number" value={String(value)} onChange={(event) => onChange(name, event.target.valueAsNumber)} className={INPUT} />
              ) : (
                <input id={id} value={String(value)} onChange={(event) => onChange(name, event.target.value)} className={INPUT} />
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

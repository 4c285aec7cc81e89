"use client";

import { useState } from "react";
import { GUARD_CATALOGUE, GUARD_KINDS, type GuardKind } from "@/server/engine/domain/catalogue";
import { isPlainObject, type Json, type JsonObject } from "./workflow-draft";
import { SMALL_BUTTON, Select } from "./fields";
import { GuardOptionFields } from "./guard-option-fields";
import { JsonText } from "./json-text";
import { Palette } from "./palette";

const KIND_CHOICES = GUARD_KINDS.map((kind) => [kind, `${GUARD_CATALOGUE[kind].title} (${kind})`] as const);
const isGuardKind = (kind: unknown): kind is GuardKind => typeof kind === "string" && (GUARD_KINDS as readonly string[]).includes(kind);

/**
 * A step's guards: each one's kind with its explanation and a field per option, every option
 * also editable as JSON; Add guard opens the palette of guard kinds.
 */
export function GuardList({ guards, onAdd, onRemove, onSet }: { guards: readonly Json[]; onAdd: (kind: GuardKind, options: JsonObject) => void; onRemove: (index: number) => void; onSet: (index: number, kind: string, options: JsonObject, field: string) => void }) {
  const [choosing, setChoosing] = useState(false);
  return (
    <fieldset className="space-y-2 rounded border border-slate-200 p-2">
      <legend className="px-1 text-xs font-semibold text-slate-700">Guards</legend>
      {guards.map((guard, index) => {
        const { kind, ...options } = isPlainObject(guard) ? guard : { kind: "" };
        const label = `Guard ${index + 1}`;
        const entry = isGuardKind(kind) ? GUARD_CATALOGUE[kind] : undefined;
        const kindText = typeof kind === "string" ? kind : "";
        return (
          <div key={index} className="space-y-1 rounded bg-slate-50 p-2" data-testid="guard">
            <div className="flex items-end gap-2">
              <div className="flex-1">
                <Select label={`${label} kind`} value={kindText} options={isGuardKind(kind) ? KIND_CHOICES : [[kindText, `${kindText} (unknown kind)`], ...KIND_CHOICES]} onChange={(next) => onSet(index, next, optionsForKind(next, options), "kind")} />
              </div>
              <button type="button" className={SMALL_BUTTON} aria-label={`Remove guard ${index + 1}`} onClick={() => onRemove(index)}>
                Remove
              </button>
            </div>
            {entry && <p className="text-xs text-slate-600">{entry.summary}</p>}
            {entry && <GuardOptionFields prefix={label} options={entry.options} values={options} onChange={(name, value) => onSet(index, kindText, withOption(options, name, value), name)} />}
            <details>
              <summary className="cursor-pointer text-xs text-slate-600">All options as JSON</summary>
              <JsonText label={`${label} options (JSON)`} value={options} problemOf={optionsProblem} onChange={(next) => onSet(index, kindText, (next ?? {}) as JsonObject, "options")} />
            </details>
          </div>
        );
      })}
      {choosing ? (
        <>
          <Palette
            label="Guard kinds"
            entries={GUARD_CATALOGUE}
            onPick={(kind) => {
              setChoosing(false);
              onAdd(kind, structuredClone(GUARD_CATALOGUE[kind].starter) as JsonObject);
            }}
          />
          <button type="button" className={SMALL_BUTTON} onClick={() => setChoosing(false)}>
            Cancel
          </button>
        </>
      ) : (
        <button type="button" className={SMALL_BUTTON} onClick={() => setChoosing(true)}>
          Add guard
        </button>
      )}
    </fieldset>
  );
}

/** On a change of kind: the options the new kind also takes, and its starting ones where missing. */
function optionsForKind(kind: string, options: JsonObject): JsonObject {
  if (!isGuardKind(kind)) return options;
  const entry = GUARD_CATALOGUE[kind];
  const kept = Object.fromEntries(Object.entries(options).filter(([name]) => entry.options.some((option) => option.name === name)));
  return { ...(structuredClone(entry.starter) as JsonObject), ...kept };
}

function withOption(options: JsonObject, name: string, value: Json | undefined): JsonObject {
  const next = { ...options };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
}

function optionsProblem(value: Json): string | null {
  if (!isPlainObject(value)) return 'Options must be a JSON object, like {"language": "python"}';
  if ("kind" in value) return "Choose the kind from the list, not in the options";
  return null;
}

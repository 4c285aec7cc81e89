"use client";

import type { GuardOption } from "@/server/engine/domain/catalogue";
import { Check, CommitText, LiveText, Select } from "./fields";
import { JsonText } from "./json-text";
import type { Json, JsonObject } from "./workflow-draft";

const LANGUAGES = [["", "(the step's language)"], "javascript", "typescript", "python"] as const;

/**
 * One field per option the catalogue lists for the guard's kind. A value that is not what the
 * option takes (a number field holding text) is written as typed, so the live check names it.
 */
export function GuardOptionFields({ prefix, options, values, onChange }: { prefix: string; options: readonly GuardOption[]; values: JsonObject; onChange: (name: string, value: Json | undefined) => void }) {
  return (
    <div className="space-y-1">
      {options.map((option) => (
        <div key={option.name}>
          <OptionField label={`${prefix} ${option.name}${option.required ? " (required)" : ""}`} option={option} value={values[option.name]} onChange={(value) => onChange(option.name, value)} />
          <p className="text-[11px] text-slate-500">{option.help}</p>
        </div>
      ))}
    </div>
  );
}

function OptionField({ label, option, value, onChange }: { label: string; option: GuardOption; value: Json | undefined; onChange: (value: Json | undefined) => void }) {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : typeof value === "number" ? String(value) : "";
  switch (option.input) {
    case "language":
      return <Select label={label} value={text} options={LANGUAGES} onChange={(next) => onChange(next === "" ? undefined : next)} />;
    case "text":
    case "multiline":
      return <LiveText label={label} value={text} multiline={option.input === "multiline"} onChange={(next) => onChange(next === "" ? undefined : next)} />;
    case "number":
      return <LiveText label={label} value={text} onChange={(next) => onChange(next.trim() === "" ? undefined : Number.isFinite(Number(next)) ? Number(next) : next)} />;
    case "boolean":
      return <Check label={label} checked={value === true} onChange={() => onChange(value === true ? undefined : true)} />;
    case "list": {
      // Applied on Enter or leaving the field: a comma typed mid-list must not be tidied away.
      const items = Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
      return (
        <CommitText
          label={label}
          value={items.join(", ")}
          onCommit={(next) => {
            const list = next.split(",").map((item) => item.trim()).filter(Boolean);
            onChange(list.length === 0 ? undefined : list);
          }}
        />
      );
    }
    case "json":
      return <JsonText label={label} value={value} optional onChange={onChange} />;
  }
}

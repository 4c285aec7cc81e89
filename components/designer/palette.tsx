"use client";

import { useId, useState } from "react";
import { searchCatalogue, type CatalogueEntry } from "@/server/engine/domain/catalogue";
import { INPUT } from "./fields";

/**
 * A searchable list of catalogue entries, each with its one-line explanation (as n8n lists its
 * nodes). Picking one reports its name; the entry's button is named by its title alone, and the
 * explanation is its description.
 */
export function Palette<Name extends string>({ label, entries, onPick }: { label: string; entries: Readonly<Record<Name, CatalogueEntry>>; onPick: (name: Name) => void }) {
  const [query, setQuery] = useState("");
  const id = useId();
  const found = searchCatalogue(entries, query);
  return (
    <div role="group" aria-label={label} className="space-y-1 rounded border border-sky-200 bg-sky-50/40 p-2" data-testid="palette">
      <input type="search" aria-label={`Search ${label.toLowerCase()}`} placeholder="Search…" value={query} onChange={(event) => setQuery(event.target.value)} className={INPUT} />
      <ul className="max-h-64 space-y-1 overflow-y-auto">
        {found.map((name) => (
          <li key={name}>
            <button
              type="button"
              aria-label={entries[name].title}
              aria-describedby={`${id}-${name}`}
              data-testid="palette-entry"
              data-name={name}
              onClick={() => onPick(name)}
              className="w-full rounded border border-slate-200 bg-white px-2 py-1 text-left hover:border-sky-400 hover:bg-sky-50"
            >
              <span className="block text-xs font-semibold text-slate-900">
                {entries[name].title} <span className="font-mono font-normal text-slate-500">{name}</span>
              </span>
              <span id={`${id}-${name}`} className="block text-xs text-slate-600">
                {entries[name].summary}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {found.length === 0 && <p className="text-xs text-slate-500">Nothing matches “{query}”.</p>}
    </div>
  );
}

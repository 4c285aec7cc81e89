import type { ErrorList } from "./error-list";
import type { CaseDraft } from "./read-case";
import type { ParsedCase } from "./types";

/**
 * Gives every case its key: the one written, or `case-<position>` (1-based) when none is. Written
 * keys must be unique; a generated key that a written one already uses gets a suffix, so a
 * file mixing both never fails on a key the author did not write.
 */
export function assignKeys(drafts: readonly CaseDraft[], errors: ErrorList): ParsedCase[] {
  const firstLine = new Map<string, number>();
  for (const draft of drafts) {
    if (draft.key === undefined) continue;
    const seen = firstLine.get(draft.key);
    if (seen === undefined) firstLine.set(draft.key, draft.keyLine);
    else errors.add(draft.keyLine, "key", `"${draft.key}" is already the key of the case on line ${seen}; keys must be unique`);
  }
  const taken = new Set(firstLine.keys());
  return drafts.map((draft, index) => {
    let key = draft.key;
    if (key === undefined) {
      const base = `case-${index + 1}`;
      key = base;
      // At most one suffix per written key, so this ends within drafts.length tries.
      for (let suffix = 2; taken.has(key); suffix++) key = `${base}-${suffix}`;
      taken.add(key);
    }
    return { key, ...draft.value };
  });
}

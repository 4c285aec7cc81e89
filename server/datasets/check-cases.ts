import { ErrorList } from "./error-list";
import { DATASET_LIMITS } from "./limits";
import { readCase } from "./read-case";
import type { ParsedCase } from "./types";

/**
 * The same rules a file's cases pass, for cases that come another way (edited by hand, copied
 * from a run or an escalation): each field bounded and storable, every key written and unique.
 * Returns the cases normalised as a file would give them, or the problems, each naming
 * `cases[i].field`.
 */
export function checkCases(input: readonly unknown[]): { ok: true; cases: ParsedCase[] } | { ok: false; problems: string[] } {
  if (input.length === 0) return { ok: false, problems: ["cases: a dataset version needs at least one case"] };
  if (input.length > DATASET_LIMITS.cases) return { ok: false, problems: [`cases: ${input.length} cases; the limit is ${DATASET_LIMITS.cases}`] };
  const errors = new ErrorList();
  const cases: ParsedCase[] = [];
  const firstIndex = new Map<string, number>();
  input.forEach((raw, index) => {
    const place = (path: readonly string[]) => ({ line: index, field: `cases[${index}].${path.join(".")}` });
    const draft = readCase(raw, index, place, errors);
    if (!draft) return;
    if (draft.key === undefined) {
      errors.add(index, `cases[${index}].key`, "is required");
      return;
    }
    const first = firstIndex.get(draft.key);
    if (first !== undefined) {
      errors.add(index, `cases[${index}].key`, `"${draft.key}" is already the key of cases[${first}]; keys must be unique`);
      return;
    }
    firstIndex.set(draft.key, index);
    cases.push({ key: draft.key, ...draft.value });
  });
  if (errors.count > 0) return { ok: false, problems: errors.finish().map((error) => `${error.field}: ${error.message}`) };
  return { ok: true, cases };
}

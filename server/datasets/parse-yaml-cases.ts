import { createLocator } from "@/server/workflows/document/locate";
import { parseYaml } from "@/server/workflows/document/parse-yaml";
import { prescan } from "@/server/workflows/document/prescan";
import { positionerFor } from "@/server/workflows/document/problems";
import { toValue } from "@/server/workflows/document/to-value";
import type { DocumentPath, DocumentProblem } from "@/server/workflows/document/types";
import type { ErrorList } from "./error-list";
import { DATASET_LIMITS } from "./limits";
import { readCase, type CaseDraft } from "./read-case";

/**
 * YAML: a list of cases, or a mapping whose only field `cases` is that list. Read by the same
 * safe pipeline as workflow documents (server/workflows/document): a lexer prescan for
 * pathological nesting, the core schema with no custom tags or merge keys, and a tree walk that
 * bounds depth, aliases and expanded size. The size check happens before (DATASET_LIMITS).
 */
export function parseYamlCases(text: string, errors: ErrorList): CaseDraft[] {
  const excessive = prescan(text);
  if (excessive) {
    errors.add(positionerFor(text)(excessive.offset).line, "file", excessive.message);
    return [];
  }
  const { doc, position, problems } = parseYaml(text);
  if (problems.items.length > 0) return reportProblems(problems.finish(), errors);
  const value = toValue(doc, text, problems);
  if (problems.items.length > 0) return reportProblems(problems.finish(), errors);
  const locate = createLocator(doc, text, position);
  const lineOf = (path: DocumentPath, fallback: number) => locate(path)?.line ?? fallback;

  let base: DocumentPath;
  let list: unknown;
  if (Array.isArray(value)) {
    base = [];
    list = value;
  } else if (typeof value === "object" && value !== null && Object.keys(value).length === 1 && "cases" in value) {
    base = ["cases"];
    list = (value as { cases: unknown }).cases;
    if (!Array.isArray(list)) {
      errors.add(lineOf(base, 1), "cases", "must be a list of cases");
      return [];
    }
  } else {
    errors.add(1, "file", value === null ? "has no cases" : "must be a list of cases, or a mapping with only a cases list");
    return [];
  }
  const items = list as unknown[];
  if (items.length > DATASET_LIMITS.cases) {
    errors.add(lineOf([...base, DATASET_LIMITS.cases], 1), "file", `has more than ${DATASET_LIMITS.cases} cases`);
    return [];
  }
  const drafts: CaseDraft[] = [];
  items.forEach((item, index) => {
    const caseLine = lineOf([...base, index], 1);
    const place = (path: readonly string[]) => ({ line: lineOf([...base, index, ...path], caseLine), field: path.join(".") });
    const draft = readCase(item, caseLine, place, errors);
    if (draft) drafts.push(draft);
  });
  return drafts;
}

function reportProblems(problems: DocumentProblem[], errors: ErrorList): CaseDraft[] {
  for (const problem of problems) errors.add(problem.line ?? 0, problem.path, problem.message);
  return [];
}

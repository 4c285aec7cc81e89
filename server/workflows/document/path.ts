import type { DocumentPath } from "./types";

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** `["workflow","steps",1,"name"]` → `workflow.steps[1].name`; the empty path is `document`. */
export function formatPath(path: DocumentPath): string {
  if (path.length === 0) return "document";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
    // Keys with dots, spaces or quotes stay unambiguous as JSON strings.
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

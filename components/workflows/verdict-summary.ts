import type { DocumentVerdict } from "./document-verdict";

/** "1 warning", "2 warnings": the counts the editor shows. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * The live check's verdict in a few words, problems and warnings counted apart: "Valid.",
 * "Valid, 2 warnings.", "3 problems, 1 warning." A warning never makes a document invalid.
 * Null while there is no verdict on this text.
 */
export function verdictSummary(verdict: DocumentVerdict): string | null {
  if (verdict.kind !== "valid" && verdict.kind !== "invalid") return null;
  const warnings = verdict.check.warnings.length;
  const warned = warnings > 0 ? `, ${count(warnings, "warning")}` : "";
  return verdict.kind === "valid" ? `Valid${warned}.` : `${count(verdict.check.problems.length, "problem")}${warned}.`;
}

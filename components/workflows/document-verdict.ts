import type { RouterOutputs } from "@/server/api/root";

export type DocumentCheck = RouterOutputs["workflow"]["check"];
export type DocumentProblem = DocumentCheck["problems"][number];

/** What the server last answered, and for exactly which text. */
export type CheckAnswer = { readonly text: string; readonly check: DocumentCheck } | { readonly text: string; readonly error: string };

/**
 * What the editor may say about the document on screen. A verdict belongs to the text that was
 * checked: while the document differs from it the answer is "checking", never the old one, and a
 * check that could not be made is said so, never read as valid.
 */
export type DocumentVerdict =
  | { readonly kind: "empty" }
  | { readonly kind: "checking" }
  | { readonly kind: "unavailable"; readonly message: string }
  | { readonly kind: "valid"; readonly check: DocumentCheck }
  | { readonly kind: "invalid"; readonly check: DocumentCheck };

export function documentVerdict(document: string, answer: CheckAnswer | null): DocumentVerdict {
  if (document === "") return { kind: "empty" };
  if (answer === null || answer.text !== document) return { kind: "checking" };
  if ("error" in answer) return { kind: "unavailable", message: answer.error };
  return answer.check.ok && answer.check.problems.length === 0 ? { kind: "valid", check: answer.check } : { kind: "invalid", check: answer.check };
}

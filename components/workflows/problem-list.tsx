"use client";

import type { DocumentProblem, DocumentVerdict } from "./document-verdict";

/** Where a problem is in the text, as the list prints it: "line 19:29 · ". */
function place(problem: DocumentProblem): string {
  if (problem.line === undefined) return "";
  return `line ${problem.line}${problem.column !== undefined ? `:${problem.column}` : ""} · `;
}

/**
 * The live check's verdict on the document on screen: valid, its problems (those with a line
 * jump there in the YAML editor), still checking, or why it could not be checked.
 */
export function ProblemList({ verdict, onGoTo }: { verdict: DocumentVerdict; onGoTo: (problem: DocumentProblem & { line: number }) => void }) {
  return (
    <div aria-live="polite" data-testid="problems">
      {verdict.kind === "checking" && <p className="text-sm text-slate-500">Checking…</p>}
      {verdict.kind === "valid" && <p className="text-sm text-emerald-700">Valid.</p>}
      {verdict.kind === "unavailable" && (
        <p role="alert" className="text-sm text-amber-800">
          Could not check the document: {verdict.message}
        </p>
      )}
      {verdict.kind === "invalid" && (
        <ul className="space-y-1 text-sm text-red-800">
          {verdict.check.problems.map((problem, index) => {
            const line = problem.line;
            const text = `${place(problem)}${problem.path}: ${problem.message}`;
            return (
              <li key={index} data-testid="problem" className="rounded bg-red-50 px-2 py-1 font-mono text-xs">
                {line === undefined ? (
                  text
                ) : (
                  <button type="button" title={`Go to line ${line} in the YAML editor`} className="text-left hover:underline" onClick={() => onGoTo({ ...problem, line })}>
                    {text}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

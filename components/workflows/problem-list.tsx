"use client";

import type { DocumentProblem, DocumentVerdict } from "./document-verdict";
import { verdictSummary } from "./verdict-summary";

/** Where a problem is in the text, as the list prints it: "line 19:29 · ". */
function place(problem: DocumentProblem): string {
  if (problem.line === undefined) return "";
  return `line ${problem.line}${problem.column !== undefined ? `:${problem.column}` : ""} · `;
}

type GoTo = (problem: DocumentProblem & { line: number }) => void;

/** One entry: its place, path and message; one with a line jumps there in the YAML editor. */
function Finding({ problem, onGoTo }: { problem: DocumentProblem; onGoTo: GoTo }) {
  const line = problem.line;
  const text = `${place(problem)}${problem.path}: ${problem.message}`;
  if (line === undefined) return <>{text}</>;
  return (
    <button type="button" title={`Go to line ${line} in the YAML editor`} className="text-left hover:underline" onClick={() => onGoTo({ ...problem, line })}>
      {text}
    </button>
  );
}

/**
 * The live check's verdict on the document on screen: valid or how many problems, then the
 * problems (red) and, in a list of their own, the warnings (amber: where the document relies on a
 * default; they never block saving). Also "checking", or why it could not be checked.
 */
export function ProblemList({ verdict, onGoTo }: { verdict: DocumentVerdict; onGoTo: GoTo }) {
  const summary = verdictSummary(verdict);
  const checked = verdict.kind === "valid" || verdict.kind === "invalid" ? verdict.check : null;
  return (
    <div aria-live="polite" data-testid="problems" className="space-y-2">
      {verdict.kind === "checking" && <p className="text-sm text-slate-500">Checking…</p>}
      {verdict.kind === "unavailable" && (
        <p role="alert" className="text-sm text-amber-800">
          Could not check the document: {verdict.message}
        </p>
      )}
      {summary !== null && (
        <p data-testid="verdict" className={`text-sm ${verdict.kind === "invalid" ? "text-red-800" : checked?.warnings.length ? "text-amber-800" : "text-emerald-700"}`}>
          {summary}
        </p>
      )}
      {verdict.kind === "invalid" && (
        <ul aria-label="Problems" className="space-y-1 text-sm text-red-800">
          {verdict.check.problems.map((problem, index) => (
            <li key={index} data-testid="problem" className="rounded bg-red-50 px-2 py-1 font-mono text-xs">
              <Finding problem={problem} onGoTo={onGoTo} />
            </li>
          ))}
        </ul>
      )}
      {checked && checked.warnings.length > 0 && (
        <ul aria-label="Warnings" className="space-y-1 text-sm text-amber-900">
          {checked.warnings.map((warning, index) => (
            <li key={index} data-testid="warning" className="flex gap-2 rounded bg-amber-50 px-2 py-1 font-mono text-xs">
              <span className="shrink-0 rounded bg-amber-200 px-1 font-sans font-semibold uppercase">warning</span>{" "}
              <Finding problem={warning} onGoTo={onGoTo} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

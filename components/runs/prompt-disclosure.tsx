/** The prompt an attempt or step was generated from, folded: open it to read it. */
export function PromptDisclosure({ prompt }: { prompt: string | null }) {
  if (prompt === null) return null;
  const lineCount = prompt.split("\n").length;
  return (
    <details className="mt-3" data-testid="attempt-prompt">
      <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">
        Prompt ({lineCount} {lineCount === 1 ? "line" : "lines"})
      </summary>
      <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-700">{prompt}</pre>
    </details>
  );
}

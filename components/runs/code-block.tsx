/** Generated code in monospace, one numbered row per line; the numbers are not selected with the code. */
export function CodeBlock({ code, language }: { code: string; language: string | null }) {
  const lines = code.split("\n");
  return (
    <pre
      data-testid="code-block"
      data-language={language ?? undefined}
      className="overflow-x-auto rounded-md bg-slate-900 py-3 font-mono text-xs leading-5 text-slate-100"
    >
      <code className="table min-w-full">
        {lines.map((line, index) => (
          <span key={index} className="table-row">
            <span aria-hidden="true" className="table-cell select-none pr-4 pl-3 text-right tabular-nums text-slate-500">
              {index + 1}
            </span>
            <span className="table-cell whitespace-pre pr-4">{line}</span>
          </span>
        ))}
      </code>
    </pre>
  );
}

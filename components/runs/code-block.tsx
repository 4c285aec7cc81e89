import { codeLineAttributes, LineCode, LineNumber } from "@/components/code/code-line";
import { tokenizeLines } from "@/components/code/tokenize";

/**
 * Generated code in monospace with syntax highlighting, one numbered row per line; the numbers
 * are not selected with the code. `markedLine` (1-based) is the line a guard objected to.
 */
export function CodeBlock({ code, language, markedLine, label }: { code: string; language: string | null; markedLine?: number | null; label?: string }) {
  const lines = tokenizeLines(code, language);
  return (
    <pre
      data-testid="code-block"
      data-language={language ?? undefined}
      aria-label={label}
      className="overflow-x-auto rounded-md bg-slate-900 py-3 font-mono text-xs leading-5 text-slate-100"
    >
      <code className="table min-w-full">
        {lines.map((tokens, index) => {
          const line = index + 1;
          const marked = markedLine === line;
          return (
            <span key={line} className={marked ? "table-row bg-red-900/70" : "table-row"} {...codeLineAttributes(line, marked)}>
              <LineNumber line={line} marked={marked} layout="table-cell pl-3" />
              <LineCode tokens={tokens} layout="table-cell" />
            </span>
          );
        })}
      </code>
    </pre>
  );
}

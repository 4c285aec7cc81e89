import { tokenizeLines, type TokenKind } from "@/components/code/tokenize";

const TOKEN_CLASS: Record<TokenKind, string | undefined> = {
  plain: undefined,
  keyword: "text-violet-300",
  string: "text-emerald-300",
  comment: "text-slate-400 italic",
  number: "text-amber-300",
};

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
          const marked = markedLine === index + 1;
          return (
            <span
              key={index}
              className={marked ? "table-row bg-red-900/70" : "table-row"}
              data-line={index + 1}
              data-offending={marked ? "true" : undefined}
              title={marked ? "The guard's fatal feedback points at this line" : undefined}
            >
              <span aria-hidden="true" className={`table-cell select-none pr-4 pl-3 text-right tabular-nums ${marked ? "text-red-200" : "text-slate-500"}`}>
                {marked ? "▶ " : ""}
                {index + 1}
              </span>
              <span className="table-cell whitespace-pre pr-4">
                {tokens.map((token, position) => (
                  <span key={position} className={TOKEN_CLASS[token.kind]}>
                    {token.text}
                  </span>
                ))}
              </span>
            </span>
          );
        })}
      </code>
    </pre>
  );
}

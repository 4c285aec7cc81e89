import type { Token, TokenKind } from "./tokenize";

const TOKEN_CLASS: Record<TokenKind, string | undefined> = {
  plain: undefined,
  keyword: "text-violet-300",
  string: "text-emerald-300",
  comment: "text-slate-400 italic",
  number: "text-amber-300",
};

/** The attributes of line `line`'s row; e2e specs find the guard's line by them. */
export function codeLineAttributes(line: number, marked: boolean) {
  return {
    "data-line": line,
    "data-offending": marked ? "true" : undefined,
    title: marked ? "The guard's fatal feedback points at this line" : undefined,
  } as const;
}

/** A line's number in the gutter, not selected with the code; `layout` places it in its row. */
export function LineNumber({ line, marked, layout }: { line: number; marked: boolean; layout: string }) {
  return (
    <span aria-hidden="true" className={`${layout} select-none pr-4 text-right tabular-nums ${marked ? "text-red-200" : "text-slate-500"}`}>
      {marked ? "▶ " : ""}
      {line}
    </span>
  );
}

/** A line's code, highlighted; `layout` places it in its row. */
export function LineCode({ tokens, layout }: { tokens: readonly Token[]; layout?: string }) {
  return (
    <span className={layout ? `${layout} whitespace-pre pr-4` : "whitespace-pre pr-4"}>
      {tokens.map((token, position) => (
        <span key={position} className={TOKEN_CLASS[token.kind]}>
          {token.text}
        </span>
      ))}
    </span>
  );
}

/**
 * A small line-oriented highlighter for the languages generators write here (Python, JavaScript,
 * TypeScript): comments, strings, numbers and keywords. Line by line because the review page marks
 * and numbers lines; a triple-quoted or block comment carries over to the next line.
 */
export type TokenKind = "plain" | "keyword" | "string" | "comment" | "number";
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self print".split(" "),
);
const SCRIPT_KEYWORDS = new Set(
  "async await break case catch class const continue debugger default delete do else export extends false finally for from function if import in instanceof interface let new null of return static super switch this throw true try type typeof undefined var void while with yield enum implements private protected public readonly as keyof".split(" "),
);

type Family = "python" | "script";
function familyOf(language: string | null): Family {
  return language === "python" || language === "py" ? "python" : "script";
}

/** Where an unterminated multi-line construct left off: the text that closes it. */
type Carry = { kind: "string" | "comment"; close: string } | null;

export function tokenizeLines(code: string, language: string | null): Token[][] {
  const family = familyOf(language);
  const keywords = family === "python" ? PYTHON_KEYWORDS : SCRIPT_KEYWORDS;
  let carry: Carry = null;
  return code.split("\n").map((line) => {
    const tokens: Token[] = [];
    let index = 0;
    const push = (kind: TokenKind, text: string) => {
      if (text === "") return;
      const last = tokens.at(-1);
      if (last && last.kind === kind) tokens[tokens.length - 1] = { kind, text: last.text + text };
      else tokens.push({ kind, text });
    };
    if (carry) {
      const end = line.indexOf(carry.close);
      if (end === -1) {
        push(carry.kind, line);
        return tokens;
      }
      push(carry.kind, line.slice(0, end + carry.close.length));
      index = end + carry.close.length;
      carry = null;
    }
    while (index < line.length) {
      const rest = line.slice(index);
      const char = line[index]!;
      const lineComment = family === "python" ? char === "#" : rest.startsWith("//");
      if (lineComment) {
        push("comment", rest);
        break;
      }
      if (family === "script" && rest.startsWith("/*")) {
        const end = line.indexOf("*/", index + 2);
        if (end === -1) {
          push("comment", rest);
          carry = { kind: "comment", close: "*/" };
          break;
        }
        push("comment", line.slice(index, end + 2));
        index = end + 2;
        continue;
      }
      const triple = family === "python" && (rest.startsWith('"""') || rest.startsWith("'''")) ? rest.slice(0, 3) : family === "script" && char === "`" ? "`" : null;
      if (triple) {
        const end = line.indexOf(triple, index + triple.length);
        if (end === -1) {
          push("string", rest);
          carry = { kind: "string", close: triple };
          break;
        }
        push("string", line.slice(index, end + triple.length));
        index = end + triple.length;
        continue;
      }
      if (char === '"' || char === "'") {
        let end = index + 1;
        while (end < line.length && line[end] !== char) end += line[end] === "\\" ? 2 : 1;
        push("string", line.slice(index, end + 1));
        index = end + 1;
        continue;
      }
      const number = /^\d[\d_]*(\.\d+)?/.exec(rest);
      if (number && !/[\w$]/.test(line[index - 1] ?? "")) {
        push("number", number[0]);
        index += number[0].length;
        continue;
      }
      const word = /^[A-Za-z_$][\w$]*/.exec(rest);
      if (word) {
        push(keywords.has(word[0]) ? "keyword" : "plain", word[0]);
        index += word[0].length;
        continue;
      }
      push("plain", char);
      index += 1;
    }
    return tokens;
  });
}

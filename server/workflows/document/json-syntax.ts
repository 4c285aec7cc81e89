/**
 * Strict JSON grammar check with the offset of the first mistake.
 *
 * JSON documents are parsed by the YAML parser (JSON is YAML 1.2 flow style),
 * which gives positions, duplicate-key detection and `locate` for free; but YAML
 * also accepts comments, single quotes, bare words and trailing commas, which a
 * `.json` file must not contain. JSON.parse would catch those but its messages
 * differ between Node versions and sometimes carry no position, so this small
 * scanner does it. It is iterative: nesting depth costs an array slot, not a
 * stack frame.
 */
export interface JsonSyntaxError {
  offset: number;
  message: string;
}

type State = "value" | "value-or-close" | "key" | "key-or-close" | "colon" | "comma-or-close" | "end";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const HEX4 = /^[0-9a-fA-F]{4}$/;

const EXPECTED: Record<State, string> = {
  value: "a value",
  "value-or-close": 'a value or "]"',
  key: "a property name in double quotes",
  "key-or-close": 'a property name in double quotes or "}"',
  colon: '":" after the property name',
  "comma-or-close": '"," or the end of the list or object',
  end: "the end of the document",
};

export function checkJsonSyntax(text: string): JsonSyntaxError | undefined {
  const stack: string[] = [];
  let state: State = "value";
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  const fail = (offset: number, message: string): JsonSyntaxError => ({ offset, message });
  const afterValue = (): State => (stack.length > 0 ? "comma-or-close" : "end");

  for (;;) {
    WHITESPACE.lastIndex = i;
    WHITESPACE.exec(text);
    i = WHITESPACE.lastIndex;
    const ch = text[i];
    if (ch === undefined) {
      return state === "end" ? undefined : fail(text.length, `unexpected end of document; expected ${EXPECTED[state]}`);
    }
    const unexpected = (): JsonSyntaxError =>
      fail(i, `unexpected ${describe(text, i)}; expected ${EXPECTED[state]}`);

    switch (state) {
      case "end":
        return fail(i, `unexpected ${describe(text, i)} after the JSON value`);
      case "colon":
        if (ch !== ":") return unexpected();
        i++;
        state = "value";
        break;
      case "comma-or-close": {
        const open = stack[stack.length - 1];
        if (ch === ",") {
          i++;
          state = open === "{" ? "key" : "value";
        } else if ((open === "{" && ch === "}") || (open === "[" && ch === "]")) {
          i++;
          stack.pop();
          state = afterValue();
        } else {
          return fail(i, `unexpected ${describe(text, i)}; expected "," or "${open === "{" ? "}" : "]"}"`);
        }
        break;
      }
      case "key":
      case "key-or-close":
        if (state === "key-or-close" && ch === "}") {
          i++;
          stack.pop();
          state = afterValue();
        } else if (ch === '"') {
          const end = scanString(text, i);
          if (typeof end !== "number") return end;
          i = end;
          state = "colon";
        } else {
          return unexpected();
        }
        break;
      case "value":
      case "value-or-close":
        if (state === "value-or-close" && ch === "]") {
          i++;
          stack.pop();
          state = afterValue();
        } else if (ch === "{" || ch === "[") {
          i++;
          stack.push(ch);
          state = ch === "{" ? "key-or-close" : "value-or-close";
        } else {
          const end = scanScalar(text, i);
          if (end === undefined) return unexpected();
          if (typeof end !== "number") return end;
          i = end;
          state = afterValue();
        }
        break;
    }
  }
}

/** End offset of a string, number or literal starting at `i`; undefined if none starts there. */
function scanScalar(text: string, i: number): number | JsonSyntaxError | undefined {
  if (text[i] === '"') return scanString(text, i);
  for (const literal of ["true", "false", "null"]) if (text.startsWith(literal, i)) return i + literal.length;
  NUMBER.lastIndex = i;
  return NUMBER.exec(text) ? NUMBER.lastIndex : undefined;
}

function scanString(text: string, start: number): number | JsonSyntaxError {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) {
      return { offset: i, message: "strings may not contain raw line breaks or control characters; use \\n or \\t" };
    }
    if (code === 0x5c) {
      const next = text[i + 1];
      if (next === "u" && HEX4.test(text.slice(i + 2, i + 6))) i += 5;
      else if (next !== undefined && ESCAPES.has(next)) i += 1;
      else return { offset: i, message: `invalid escape sequence "\\${next ?? ""}" in string` };
    }
  }
  return { offset: start, message: "string is not closed with a double quote" };
}

function describe(text: string, i: number): string {
  const word = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 40))?.[0];
  return word ? `word "${word}"` : `character ${JSON.stringify(text[i])}`;
}

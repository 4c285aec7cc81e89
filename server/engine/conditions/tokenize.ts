import { syntaxError, type ConditionSyntaxError } from "./condition-node";

/** `column` is 1-based and counts UTF-16 code units, like JavaScript string indices. */
interface TokenBase {
  readonly text: string;
  readonly column: number;
}
export type Token =
  | (TokenBase & { readonly type: "number"; readonly value: number })
  | (TokenBase & { readonly type: "string"; readonly value: string })
  | (TokenBase & { readonly type: "name" | "keyword" | "operator" | "(" | ")" | "end" });

export type TokenizeResult = { readonly ok: true; readonly tokens: readonly Token[] } | ConditionSyntaxError;

const KEYWORDS = new Set(["and", "or", "not", "true", "false"]);
const TWO_CHAR_OPERATORS = new Set(["==", "!=", "<=", ">=", "&&", "||"]);
const ONE_CHAR_OPERATORS = new Set(["<", ">", "!", "-"]);
/** Halves of two-character operators that are mistakes on their own. */
const LONE_OPERATORS = new Map([
  ["=", '"=" is not an operator (use "==")'],
  ["&", '"&" is not an operator (use "&&" or "and")'],
  ["|", '"|" is not an operator (use "||" or "or")'],
]);
/**
 * Names of Object.prototype members: rejected so a condition can never name something a careless
 * `scope[name]` lookup would find on the prototype chain.
 */
const FORBIDDEN_NAMES = new Set([
  "__proto__", "constructor", "prototype", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
  "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toString", "toLocaleString", "valueOf",
]);
/** Spellings from other languages that would otherwise read as undeclared variables. */
const FOREIGN_LITERALS = new Map([
  ["True", 'use "true"'], ["False", 'use "false"'],
  ["null", "conditions have no null"], ["None", "conditions have no null"], ["undefined", "conditions have no null"],
]);
const ESCAPABLE = new Set(["\\", '"', "'"]);

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const isNameStart = (c: string | undefined) => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_");
const isNamePart = (c: string | undefined) => isNameStart(c) || isDigit(c);
const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";

type Scan = { readonly ok: true; readonly token: Token; readonly end: number } | ConditionSyntaxError;

/** Hand-written scanner: one pass, no regular expressions, every failure is a located message. */
export function tokenize(source: string): TokenizeResult {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (isSpace(c)) {
      i++;
      continue;
    }
    const scan = scanToken(source, i, c);
    if (!scan.ok) return scan;
    tokens.push(scan.token);
    i = scan.end;
  }
  tokens.push({ type: "end", text: "", column: source.length + 1 });
  return { ok: true, tokens };
}

function scanToken(source: string, i: number, c: string): Scan {
  const column = i + 1;
  if (isDigit(c)) return scanNumber(source, i);
  if (c === '"' || c === "'") return scanString(source, i, c);
  if (isNameStart(c)) return scanName(source, i);
  if (c === "(" || c === ")") return { ok: true, token: { type: c, text: c, column }, end: i + 1 };
  const pair = source.slice(i, i + 2);
  if (TWO_CHAR_OPERATORS.has(pair)) return { ok: true, token: { type: "operator", text: pair, column }, end: i + 2 };
  if (ONE_CHAR_OPERATORS.has(c)) return { ok: true, token: { type: "operator", text: c, column }, end: i + 1 };
  const lone = LONE_OPERATORS.get(c);
  if (lone) return syntaxError(lone, column);
  // Whole code point, so an emoji is reported as itself rather than half a surrogate pair.
  const character = String.fromCodePoint(source.codePointAt(i) as number);
  return syntaxError(`unknown character ${JSON.stringify(character)}`, column);
}

function scanNumber(source: string, start: number): Scan {
  let end = start;
  while (isDigit(source[end])) end++;
  if (source[end] === ".") {
    if (!isDigit(source[end + 1])) return syntaxError('expected a digit after "."', end + 1);
    end++;
    while (isDigit(source[end])) end++;
  }
  // `1e5`, `2x`, `1.2.3`: no exponents, no suffixes; reject rather than split into two tokens.
  if (isNamePart(source[end]) || source[end] === ".") return syntaxError("malformed number", start + 1);
  const text = source.slice(start, end);
  const value = Number(text);
  if (!Number.isFinite(value)) return syntaxError("number is too large", start + 1);
  return { ok: true, token: { type: "number", text, value, column: start + 1 }, end };
}

function scanString(source: string, start: number, quote: string): Scan {
  const parts: string[] = [];
  let i = start + 1;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === quote) return { ok: true, token: { type: "string", text: source.slice(start, i + 1), value: parts.join(""), column: start + 1 }, end: i + 1 };
    if (c === "\\") {
      const escaped = source[i + 1];
      if (escaped === undefined) break;
      if (!ESCAPABLE.has(escaped)) return syntaxError(`unknown escape "\\${escaped}" in string (only \\\\, \\" and \\')`, i + 1);
      parts.push(escaped);
      i += 2;
      continue;
    }
    parts.push(c);
    i++;
  }
  return syntaxError("unterminated string starting", start + 1);
}

/**
 * A name, or a dotted path of names such as `steps.check.output` (an earlier step's output):
 * each segment is a name of its own, so a dot must be followed by one.
 */
function scanName(source: string, start: number): Scan {
  let end = start;
  while (isNamePart(source[end])) end++;
  while (source[end] === "." && isNameStart(source[end + 1])) {
    end++;
    while (isNamePart(source[end])) end++;
  }
  const text = source.slice(start, end);
  const column = start + 1;
  const forbidden = text.split(".").find((segment) => FORBIDDEN_NAMES.has(segment));
  if (forbidden !== undefined) return syntaxError(`"${forbidden}" cannot be used as a name`, column);
  const foreign = FOREIGN_LITERALS.get(text);
  if (foreign) return syntaxError(`"${text}" is not supported (${foreign})`, column);
  return { ok: true, token: { type: KEYWORDS.has(text) ? "keyword" : "name", text, column }, end };
}

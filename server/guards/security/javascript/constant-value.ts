import ts from "typescript";
import type { Path } from "./policy";

/**
 * A value known without running the code. Obfuscated code builds names such as "process" or
 * "child_process" from pieces ('pro' + 'cess', String.fromCharCode(…), atob('…')); folding those
 * pieces gives the analysis the real name back.
 */
export type Constant = string | number | boolean | { readonly bytes: Buffer } | readonly Constant[];

export interface ConstantContext {
  /** The global a callee resolves to (["String", "fromCharCode"]), if any. */
  pathOf(expression: ts.Expression): Path | undefined;
  /** The initializer of a `const` the identifier refers to. */
  constInitializer(identifier: ts.Identifier): ts.Expression | undefined;
}

const MAX_DEPTH = 40;
const MAX_LENGTH = 100_000;
type Env = ReadonlyMap<string, Constant>;

const isString = (value: Constant | undefined): value is string => typeof value === "string";
const isNumber = (value: Constant | undefined): value is number => typeof value === "number";
const isList = (value: Constant | undefined): value is readonly Constant[] => Array.isArray(value);
const isBytes = (value: Constant | undefined): value is { readonly bytes: Buffer } => typeof value === "object" && value !== null && !Array.isArray(value) && "bytes" in value;

function asText(value: Constant): string {
  if (isBytes(value)) return value.bytes.toString("utf8");
  if (isList(value)) return value.map(asText).join(",");
  return String(value);
}

function capped(text: string): string | undefined {
  return text.length > MAX_LENGTH ? undefined : text;
}

function samePath(path: Path | undefined, ...expected: string[]): boolean {
  return path !== undefined && path.length === expected.length && path.every((segment, index) => segment === expected[index]);
}

const BUFFER_ENCODINGS = new Set(["base64", "base64url", "hex", "latin1", "binary", "utf8", "utf-8", "ascii", "ucs2", "utf16le"]);

export function createConstantEvaluator(context: ConstantContext): (expression: ts.Expression) => Constant | undefined {
  const evaluate = (node: ts.Expression, env: Env, depth: number): Constant | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    const next = (child: ts.Expression, scope: Env = env) => evaluate(child, scope, depth + 1);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node)) {
      return next(node.expression);
    }
    if (ts.isTemplateExpression(node)) {
      let text = node.head.text;
      for (const span of node.templateSpans) {
        const value = next(span.expression);
        if (value === undefined) return undefined;
        text += asText(value) + span.literal.text;
      }
      return capped(text);
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = next(node.left);
      const right = left === undefined ? undefined : next(node.right);
      if (left === undefined || right === undefined) return undefined;
      if (isNumber(left) && isNumber(right)) return left + right;
      return capped(asText(left) + asText(right));
    }
    if (ts.isIdentifier(node)) {
      const bound = env.get(node.text);
      if (bound !== undefined) return bound;
      const initializer = context.constInitializer(node);
      return initializer ? next(initializer, new Map()) : undefined;
    }
    if (ts.isArrayLiteralExpression(node)) return evaluateList(node.elements, next);
    if (ts.isElementAccessExpression(node)) {
      const target = next(node.expression);
      const index = next(node.argumentExpression);
      if (!isNumber(index)) return undefined;
      if (isString(target) || isList(target)) return target[index];
      return undefined;
    }
    if (ts.isCallExpression(node)) return evaluateCall(node, next, env);
    return undefined;
  };

  const evaluateCall = (node: ts.CallExpression, next: (child: ts.Expression, scope?: Env) => Constant | undefined, env: Env): Constant | undefined => {
    // Array.prototype.map with a one-parameter arrow: [112, 114].map(c => String.fromCharCode(c))
    if (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "map") {
      const receiver = next(node.expression.expression);
      const [callback] = node.arguments;
      if (!isList(receiver) || !callback || !ts.isArrowFunction(callback) || ts.isBlock(callback.body)) return undefined;
      const [parameter] = callback.parameters;
      if (!parameter || !ts.isIdentifier(parameter.name)) return undefined;
      const name = parameter.name.text;
      const body = callback.body;
      const mapped: Constant[] = [];
      for (const item of receiver) {
        const value = next(body, new Map([...env, [name, item]]));
        if (value === undefined) return undefined;
        mapped.push(value);
      }
      return mapped;
    }
    const args = evaluateList(node.arguments, next);
    if (args === undefined) return undefined;
    const callee = context.pathOf(node.expression);
    if (samePath(callee, "String", "fromCharCode") || samePath(callee, "String", "fromCodePoint")) {
      if (!args.every(isNumber)) return undefined;
      try {
        return capped(String.fromCodePoint(...args));
      } catch {
        return undefined;
      }
    }
    if (samePath(callee, "String") && args.length === 1 && args[0] !== undefined) return asText(args[0]);
    if (samePath(callee, "atob") && isString(args[0])) return Buffer.from(args[0], "base64").toString("latin1");
    if ((samePath(callee, "decodeURIComponent") || samePath(callee, "unescape")) && isString(args[0])) {
      try {
        return samePath(callee, "unescape") ? unescape(args[0]) : decodeURIComponent(args[0]);
      } catch {
        return undefined;
      }
    }
    if (samePath(callee, "Buffer", "from")) {
      const [input, encoding = "utf8"] = args;
      if (isString(input) && isString(encoding) && BUFFER_ENCODINGS.has(encoding)) return { bytes: Buffer.from(input, encoding as BufferEncoding) };
      if (isList(input) && input.every(isNumber)) return { bytes: Buffer.from(input) };
      return undefined;
    }
    if (!ts.isPropertyAccessExpression(node.expression)) return undefined;
    const method = node.expression.name.text;
    const receiver = next(node.expression.expression);
    if (receiver === undefined) return undefined;
    return applyMethod(receiver, method, args);
  };

  return (expression) => evaluate(expression, new Map(), 0);
}

function evaluateList(elements: readonly ts.Expression[], next: (child: ts.Expression) => Constant | undefined): Constant[] | undefined {
  const values: Constant[] = [];
  for (const element of elements) {
    if (ts.isSpreadElement(element)) {
      const spread = next(element.expression);
      if (isList(spread)) values.push(...spread);
      else if (isString(spread)) values.push(...spread);
      else return undefined;
      continue;
    }
    if (ts.isOmittedExpression(element)) return undefined;
    const value = next(element);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}

/** The string, array and Buffer methods obfuscators use to assemble names. */
function applyMethod(receiver: Constant, method: string, args: readonly Constant[]): Constant | undefined {
  const [first, second] = args;
  if (isBytes(receiver)) {
    if (method !== "toString") return undefined;
    const encoding = first === undefined ? "utf8" : first;
    return isString(encoding) && BUFFER_ENCODINGS.has(encoding) ? capped(receiver.bytes.toString(encoding as BufferEncoding)) : undefined;
  }
  if (isList(receiver)) {
    switch (method) {
      case "join":
        return capped(receiver.map(asText).join(first === undefined ? "," : asText(first)));
      case "reverse":
        return [...receiver].reverse();
      case "concat":
        return [...receiver, ...args.flatMap((arg) => (isList(arg) ? arg : [arg]))];
      case "slice":
        return receiver.slice(isNumber(first) ? first : 0, isNumber(second) ? second : undefined);
      default:
        return undefined;
    }
  }
  if (!isString(receiver)) return undefined;
  switch (method) {
    case "split":
      return isString(first) ? receiver.split(first) : undefined;
    case "concat":
      return capped(receiver + args.map(asText).join(""));
    case "toLowerCase":
      return receiver.toLowerCase();
    case "toUpperCase":
      return receiver.toUpperCase();
    case "trim":
      return receiver.trim();
    case "toString":
    case "valueOf":
      return receiver;
    case "slice":
    case "substring":
      return isNumber(first) ? receiver[method](first, isNumber(second) ? second : undefined) : undefined;
    case "charAt":
      return isNumber(first) ? receiver.charAt(first) : undefined;
    case "replace":
    case "replaceAll":
      return isString(first) && isString(second) ? capped(receiver[method](first, second)) : undefined;
    case "repeat":
      return isNumber(first) && first >= 0 && first * receiver.length <= MAX_LENGTH ? receiver.repeat(first) : undefined;
    default:
      return undefined;
  }
}

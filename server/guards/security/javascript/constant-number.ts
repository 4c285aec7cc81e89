import ts from "typescript";
import type { Resolver } from "./resolver";
import { skipWrappers } from "./syntax-positions";

/**
 * The numeric value of a constant expression: `1e10`, `2 ** 32 - 1`, `1 << 31`, `Math.pow(10, 9)`,
 * `Number.MAX_SAFE_INTEGER`, a `const` holding one. JavaScript numbers are doubles, so even
 * `10 ** 10 ** 10` is one multiplication giving Infinity: nothing here can grow without bound, and
 * the depth is capped for nesting.
 *
 * Shifts are taken as the size the writer asked for (`1 << 31` is 2³¹), not as the 32-bit wrap
 * JavaScript applies, which turns it negative: a reviewer wants to see that allocation either way.
 */
const MAX_DEPTH = 40;
/** Steps one question may take: `const b = a + a; const c = b + b; …` would otherwise double per line. */
const MAX_STEPS = 2_000;

const NAMED_NUMBERS: Record<string, number> = {
  Infinity: Infinity,
  "Number.MAX_SAFE_INTEGER": Number.MAX_SAFE_INTEGER,
  "Number.MAX_VALUE": Number.MAX_VALUE,
  "Number.POSITIVE_INFINITY": Infinity,
};

export function constantNumber(expression: ts.Expression, resolver: Resolver): number | undefined {
  const steps = { left: MAX_STEPS };
  return evaluate(expression, resolver, 0, steps);
}

function evaluate(expression: ts.Expression, resolver: Resolver, depth: number, steps: { left: number }): number | undefined {
  if (depth > MAX_DEPTH || steps.left-- <= 0) return undefined;
  const next = (child: ts.Expression) => evaluate(child, resolver, depth + 1, steps);
  const node = skipWrappers(expression);
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node)) {
    const operand = next(node.operand);
    if (operand === undefined) return undefined;
    if (node.operator === ts.SyntaxKind.MinusToken) return -operand;
    if (node.operator === ts.SyntaxKind.PlusToken) return operand;
    return node.operator === ts.SyntaxKind.TildeToken ? -operand - 1 : undefined;
  }
  if (ts.isBinaryExpression(node)) {
    const left = next(node.left);
    const right = left === undefined ? undefined : next(node.right);
    return left === undefined || right === undefined ? undefined : arithmetic(node.operatorToken.kind, left, right);
  }
  if (ts.isIdentifier(node)) {
    const initializer = resolver.constInitializer(node);
    if (initializer) return next(initializer);
    return resolver.isDeclaredHere(node) ? undefined : NAMED_NUMBERS[node.text];
  }
  const path = ts.isPropertyAccessExpression(node) ? resolver.pathOf(node) : undefined;
  if (path) return NAMED_NUMBERS[path.join(".")];
  if (ts.isCallExpression(node) && node.arguments.length === 2) {
    const callee = resolver.pathOf(node.expression)?.join(".");
    const [base, exponent] = node.arguments.map(next);
    if (callee === "Math.pow" && base !== undefined && exponent !== undefined) return base ** exponent;
  }
  const value = resolver.constantOf(node);
  return typeof value === "number" ? value : undefined;
}

function arithmetic(operator: ts.SyntaxKind, left: number, right: number): number | undefined {
  switch (operator) {
    case ts.SyntaxKind.PlusToken:
      return left + right;
    case ts.SyntaxKind.MinusToken:
      return left - right;
    case ts.SyntaxKind.AsteriskToken:
      return left * right;
    case ts.SyntaxKind.SlashToken:
      return left / right;
    case ts.SyntaxKind.AsteriskAsteriskToken:
      return left ** right;
    case ts.SyntaxKind.LessThanLessThanToken:
      return left * 2 ** Math.min(right, 1100); // beyond 2^1100 a double is Infinity anyway
    case ts.SyntaxKind.GreaterThanGreaterThanToken:
    case ts.SyntaxKind.GreaterThanGreaterThanGreaterThanToken:
      return Math.floor(left / 2 ** Math.min(right, 1100));
    case ts.SyntaxKind.BarToken:
      return left | right;
    default:
      return undefined;
  }
}

import ts from "typescript";
import type { Rule, RuleContext } from "../context";
import { excerpt, skipWrappers } from "../syntax-positions";

/** `process.exit()` and its kin end the process, and so the loop. */
const PROCESS_ENDERS = new Set(["exit", "reallyExit", "abort", "kill"]);

/**
 * How many nodes the exit search may visit in one analysis. Loops nested inside loops are searched
 * once per enclosing loop; this bounds hostile nesting. A search cut short finds no way out (the
 * code is reported, not passed), which only pathological nesting ever reaches.
 */
const SEARCH_BUDGET = 200_000;
interface SearchMemory {
  remaining: number;
  /** What the search found under a nested loop, by the state it was searched in: nested loops are searched once. */
  nested: Map<ts.Node, Map<string, boolean>>;
}
const memories = new WeakMap<ts.SourceFile, SearchMemory>();

/**
 * Loops that cannot end: `while (true)`, `for (;;)`, `do … while (1)`, a condition that is a constant
 * truthy value (also through a `const`), with nothing inside that leaves the loop: no `break` aimed at
 * it (a `break` inside a nested loop or `switch` leaves only that), no `continue` to an outer label, no
 * `return`, no `throw` that is not caught inside the loop, no `yield`/`await` (a generator or an event
 * loop hands control back), no `process.exit()`. Nested functions are not looked into: what they do
 * happens when they are called, not in the loop.
 */
export const checkNonTermination: Rule = (node, context) => {
  if (!ts.isWhileStatement(node) && !ts.isDoStatement(node) && !ts.isForStatement(node)) return;
  const condition = ts.isForStatement(node) ? node.condition : node.expression;
  if (condition && truthiness(condition, context, 0) !== true) return;
  if (hasWayOut(node, context)) return;
  context.report(node, "non-termination", "endless-loop", `${loopHeader(node, condition, context)} with no way out`);
};

function loopHeader(loop: ts.IterationStatement, condition: ts.Expression | undefined, context: RuleContext): string {
  const shown = condition ? excerpt(condition, context.sourceFile, 24) : "";
  if (ts.isForStatement(loop)) return condition ? `for (…; ${shown}; …)` : "for (;;)";
  return ts.isDoStatement(loop) ? `do … while (${shown})` : `while (${shown})`;
}

const MAX_DEPTH = 20;

/** true / false when the expression is always truthy / falsy, undefined when it depends on data. */
function truthiness(expression: ts.Expression, context: RuleContext, depth: number): boolean | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node = skipWrappers(expression);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
    const inner = truthiness(node.operand, context, depth + 1);
    return inner === undefined ? undefined : !inner;
  }
  if (ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isClassExpression(node) || ts.isRegularExpressionLiteral(node)) return true;
  if (node.kind === ts.SyntaxKind.NullKeyword) return false;
  if (ts.isIdentifier(node)) {
    if (node.text === "undefined" && !context.resolver.isDeclaredHere(node)) return false;
    // a `const` never changes between two tests of the condition
    const initializer = context.resolver.constInitializer(node);
    if (initializer) return truthiness(initializer, context, depth + 1);
  }
  if (ts.isBinaryExpression(node)) return comparison(node, context);
  const value = context.resolver.constantOf(node);
  if (typeof value === "boolean" || typeof value === "number" || typeof value === "string") return Boolean(value);
  return value === undefined ? undefined : true; // a list or bytes: an object, always truthy
}

/** `1 === 1`, `0 < 1`: comparisons of two constants. */
function comparison(node: ts.BinaryExpression, context: RuleContext): boolean | undefined {
  const left = context.resolver.constantOf(node.left);
  const right = context.resolver.constantOf(node.right);
  const primitive = (value: unknown): value is string | number | boolean => ["string", "number", "boolean"].includes(typeof value);
  if (!primitive(left) || !primitive(right)) return undefined;
  switch (node.operatorToken.kind) {
    case ts.SyntaxKind.EqualsEqualsEqualsToken:
    case ts.SyntaxKind.EqualsEqualsToken:
      return left === right;
    case ts.SyntaxKind.ExclamationEqualsEqualsToken:
    case ts.SyntaxKind.ExclamationEqualsToken:
      return left !== right;
    case ts.SyntaxKind.LessThanToken:
      return left < right;
    case ts.SyntaxKind.GreaterThanToken:
      return left > right;
    case ts.SyntaxKind.LessThanEqualsToken:
      return left <= right;
    case ts.SyntaxKind.GreaterThanEqualsToken:
      return left >= right;
    default:
      return undefined;
  }
}

/** The labels written in front of the loop: `outer: while (true)`. */
function ownLabels(loop: ts.Node): Set<string> {
  const labels = new Set<string>();
  for (let parent = loop.parent; parent && ts.isLabeledStatement(parent); parent = parent.parent) labels.add(parent.label.text);
  return labels;
}

interface SearchState {
  /** An unlabelled `break` here leaves a nested loop or switch, not this loop. */
  nestedBreakable: boolean;
  /** Labels declared inside this loop: a `break` to them stays inside. */
  innerLabels: ReadonlySet<string>;
  /** A `throw` here is caught by a `try … catch` inside this loop. */
  caught: boolean;
}

function hasWayOut(loop: ts.IterationStatement, context: RuleContext): boolean {
  let memory = memories.get(context.sourceFile);
  if (!memory) {
    memory = { remaining: SEARCH_BUDGET, nested: new Map() };
    memories.set(context.sourceFile, memory);
  }
  const counter = memory;
  const labels = ownLabels(loop);
  const signature = (state: SearchState) => `${state.caught ? 1 : 0}|${[...state.innerLabels].join(",")}|${[...labels].join(",")}`;
  const searchNested = (node: ts.IterationStatement, state: SearchState): boolean => {
    const key = signature(state);
    const known = counter.nested.get(node)?.get(key);
    if (known !== undefined) return known;
    const found = someChild(node, { ...state, nestedBreakable: true });
    if (counter.remaining > 0) {
      const byState = counter.nested.get(node) ?? new Map<string, boolean>();
      byState.set(key, found);
      counter.nested.set(node, byState);
    }
    return found;
  };
  const search = (node: ts.Node, state: SearchState): boolean => {
    if (counter.remaining-- <= 0) return false;
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
    if (ts.isReturnStatement(node) || ts.isYieldExpression(node) || ts.isAwaitExpression(node)) return true;
    if (ts.isForOfStatement(node) && node.awaitModifier) return true;
    if (ts.isThrowStatement(node) && !state.caught) return true;
    if (ts.isBreakStatement(node)) return node.label ? !state.innerLabels.has(node.label.text) : !state.nestedBreakable;
    if (ts.isContinueStatement(node)) return node.label !== undefined && !state.innerLabels.has(node.label.text) && !labels.has(node.label.text);
    if (ts.isCallExpression(node) && endsProcess(node, context)) return true;
    if (ts.isIfStatement(node)) {
      // `if (false) break;` is no way out: a branch a constant condition never takes is skipped
      const taken = truthiness(node.expression, context, 0);
      if (search(node.expression, state)) return true;
      if (taken !== false && search(node.thenStatement, state)) return true;
      return taken !== true && node.elseStatement !== undefined && search(node.elseStatement, state);
    }
    if (ts.isLabeledStatement(node)) return search(node.statement, { ...state, innerLabels: new Set([...state.innerLabels, node.label.text]) });
    if (ts.isIterationStatement(node, false)) return searchNested(node, state);
    if (ts.isSwitchStatement(node)) return search(node.expression, state) || search(node.caseBlock, { ...state, nestedBreakable: true });
    if (ts.isTryStatement(node) && node.catchClause) {
      return search(node.tryBlock, { ...state, caught: true }) || search(node.catchClause, state) || (node.finallyBlock !== undefined && search(node.finallyBlock, state));
    }
    return someChild(node, state);
  };
  const someChild = (node: ts.Node, state: SearchState): boolean => ts.forEachChild(node, (child) => (search(child, state) ? true : undefined)) ?? false;
  const start: SearchState = { nestedBreakable: false, innerLabels: new Set(), caught: false };
  // The loop's own condition and update can hold a yield or an await too: `while (await more())`.
  return someChild(loop, start);
}

function endsProcess(call: ts.CallExpression, context: RuleContext): boolean {
  const path = context.resolver.pathOf(call.expression);
  return path !== undefined && path.length === 2 && path[0] === "process" && PROCESS_ENDERS.has(path[1] ?? "");
}

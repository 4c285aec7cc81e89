import ts from "typescript";
import type { Rule, RuleContext } from "../context";
import { CONSTRUCTOR, MAYBE_FUNCTION_CONSTRUCTOR, type Path } from "../policy";
import { excerpt, skipWrappers } from "../syntax-positions";

const TIMERS = new Set(["setTimeout", "setInterval"]);
const INVOKERS = new Set(["call", "apply", "bind"]);

/**
 * Strings evaluated as code other than through `eval` (which is a forbidden global):
 * - `new Function(…)` / `Function(…)`, also when Function is reached as `x.constructor`
 *   (`[].constructor.constructor`, `(() => {}).constructor`, `Object.getPrototypeOf(async () => {}).constructor`);
 * - calling a constructor taken from a method or value (`"".toString.constructor("…")`);
 * - `setTimeout`/`setInterval` with a string instead of a function;
 * - `obj["constructor"]`: bracket notation for the constructor is a way to hide the chain.
 * `new this.constructor()` and reading `x.constructor.name` are ordinary code and pass.
 */
export const checkCodeEvaluation: Rule = (node, context) => {
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) checkCall(node, context);
  else if (ts.isTaggedTemplateExpression(node)) checkTaggedTimer(node, context);
  else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) checkConstructorAccess(node, context);
};

function checkCall(call: ts.CallExpression | ts.NewExpression, context: RuleContext): void {
  const { resolver, sourceFile } = context;
  const callee = skipWrappers(call.expression);
  const path = resolver.pathOf(callee);
  if (!path) return;
  const [root, member] = path;
  if (path.length === 1 && root === "Function") {
    if (isConstructorAccess(callee, context)) return; // reported at the `.constructor` itself
    context.report(call, "eval-code", "Function", ts.isNewExpression(call) ? "new Function" : "Function()");
    return;
  }
  const viaInvoker = path.length === 2 && member !== undefined && INVOKERS.has(member);
  if ((root === MAYBE_FUNCTION_CONSTRUCTOR || (root === CONSTRUCTOR && ts.isCallExpression(call))) && (path.length === 1 || viaInvoker)) {
    // A class cannot be called without `new`; a constructor that can is Function (or a wrapper).
    context.report(call, "eval-code", "Function", `${excerpt(callee, sourceFile, 40)}()`);
    return;
  }
  if (ts.isCallExpression(call) && path.length === 1 && root !== undefined && TIMERS.has(root)) {
    const [first] = call.arguments;
    if (first && isStringLike(first, context)) context.report(call, "eval-code", root, `${root}(string)`);
  }
}

/** setTimeout`code` passes the template's strings, which the timer turns into code. */
function checkTaggedTimer(node: ts.TaggedTemplateExpression, context: RuleContext): void {
  const path = context.resolver.pathOf(node.tag);
  const [root] = path ?? [];
  if (path?.length === 1 && root !== undefined && TIMERS.has(root)) context.report(node, "eval-code", root, `${root}(string)`);
}

function isConstructorAccess(node: ts.Expression, context: RuleContext): boolean {
  return (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && context.resolver.memberKey(node) === "constructor";
}

function checkConstructorAccess(node: ts.PropertyAccessExpression | ts.ElementAccessExpression, context: RuleContext): void {
  if (!isConstructorAccess(node, context)) return;
  const path: Path | undefined = context.resolver.pathOf(node);
  if (path?.length === 1 && path[0] === "Function") {
    context.report(node, "eval-code", "Function", excerpt(node, context.sourceFile, 40));
  } else if (ts.isElementAccessExpression(node)) {
    context.report(node, "obfuscation", "constructor", `${excerpt(node.expression, context.sourceFile, 24)}["constructor"]`);
  }
}

/** A string for sure, or built like one: a literal, a template, a concatenation, String(…), atob(…). */
function isStringLike(expression: ts.Expression, context: RuleContext): boolean {
  const node = skipWrappers(expression);
  if (typeof context.resolver.constantOf(node) === "string") return true;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) return true;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) return isStringLike(node.left, context) || isStringLike(node.right, context);
  if (ts.isCallExpression(node)) {
    const callee = context.resolver.pathOf(node.expression);
    if (callee?.length === 1 && (callee[0] === "String" || callee[0] === "atob" || callee[0] === "decodeURIComponent" || callee[0] === "unescape")) return true;
    const method = ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : undefined;
    return method === "toString" || method === "join" || method === "fromCharCode" || method === "fromCodePoint";
  }
  return false;
}

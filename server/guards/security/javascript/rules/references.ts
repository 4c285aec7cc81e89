import ts from "typescript";
import type { Rule, RuleContext } from "../context";
import { capabilityRoot, forbiddenPrefix, type Path } from "../policy";
import { excerpt, isReferenceIdentifier, usageOf } from "../syntax-positions";

/**
 * Uses of forbidden globals and module members (process.env, eval, fetch, fs.readFileSync, …),
 * however they are reached: directly, through globalThis/window, an alias, a destructuring or an
 * import specifier. A finding is made where the forbidden name first appears in a chain, so
 * `process.env.HOME` is one finding, "process.env".
 */
export const checkReferences: Rule = (node, context) => {
  if (ts.isBindingElement(node) || ts.isImportSpecifier(node)) {
    checkBinding(node, context);
    return;
  }
  const isExpression = isReferenceIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isCallExpression(node) || node.kind === ts.SyntaxKind.ThisKeyword;
  if (!isExpression) return;
  const expression = node as ts.Expression;
  const { resolver } = context;
  if (ts.isElementAccessExpression(expression) && resolver.memberKey(expression) === undefined) {
    checkComputedAccess(expression, context);
    return;
  }
  const path = resolver.pathOf(expression);
  if (!path) return;
  // A name declared here (`const e = eval`, `import { execSync } …`) was reported where it got its value.
  const isAlias = ts.isIdentifier(expression) && resolver.isDeclaredHere(expression);
  const inner = ts.isPropertyAccessExpression(expression) || ts.isElementAccessExpression(expression) ? resolver.pathOf(expression.expression) : undefined;
  if (!isAlias) reportForbidden(expression, path, inner, context);
  const rootRule = capabilityRoot(path);
  if (rootRule && usageOf(expression) === "value") context.report(expression, rootRule, path.join("."), displayPath(path, expression, context));
};

/** Pseudo paths (a value reached through `.constructor`) are shown as the code itself. */
function displayPath(path: Path, node: ts.Node, context: RuleContext): string {
  return path.some((segment) => segment.startsWith("<")) ? excerpt(node, context.sourceFile) : path.join(".");
}

function reportForbidden(node: ts.Node, path: Path, innerPath: Path | undefined, context: RuleContext): void {
  const forbidden = forbiddenPrefix(path);
  if (!forbidden) return;
  // Already reported where the chain first became forbidden: eval.call is "eval", reported at eval.
  if (innerPath && forbiddenPrefix(innerPath)?.key === forbidden.key) return;
  if (ts.isExpression(node) && isHarmlessUse(node, path)) return;
  context.report(node, forbidden.rule, forbidden.key);
}

/**
 * Uses of a forbidden name that do not use the capability: feature detection
 * (`typeof fetch === "function"`), replacing a global with a test double (`globalThis.fetch = mock`, as
 * tests do), and Node's `if (require.main === module)` idiom.
 */
function isHarmlessUse(node: ts.Expression, path: Path): boolean {
  let child: ts.Node = node;
  while (ts.isParenthesizedExpression(child.parent)) child = child.parent;
  const parent = child.parent;
  if (ts.isTypeOfExpression(parent)) return true;
  const replacesGlobal = ts.isBinaryExpression(parent) && parent.left === child && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  if (replacesGlobal && path.length === 1) return true;
  return path.length === 2 && path[0] === "require" && path[1] === "main" && usageOf(node) === "inspect";
}

/** `globalThis[name]`, `process[key]`: a name that cannot be known reaches into a capability. */
function checkComputedAccess(node: ts.ElementAccessExpression, context: RuleContext): void {
  const base = context.resolver.pathOf(node.expression);
  if (base && capabilityRoot(base)) context.report(node, "obfuscation", `${base.join(".")}[]`, `${displayPath(base, node.expression, context)}[<computed>]`);
}

/** `const { env } = process`, `import { execSync } from "child_process"`. */
function checkBinding(node: ts.BindingElement | ts.ImportSpecifier, context: RuleContext): void {
  const { resolver } = context;
  if (ts.isImportSpecifier(node)) {
    const path = resolver.declarationPath(node);
    if (path) reportForbidden(node, path, undefined, context);
    return;
  }
  const pattern = node.parent;
  if (!ts.isObjectBindingPattern(pattern)) return;
  const source = resolver.patternSourcePath(pattern);
  if (!source) return;
  const computedKey = node.propertyName && ts.isComputedPropertyName(node.propertyName) && resolver.constantOf(node.propertyName.expression) === undefined;
  if (node.dotDotDotToken || computedKey) {
    const rootRule = capabilityRoot(source);
    if (!rootRule) return;
    if (node.dotDotDotToken) context.report(node, rootRule, source.join("."), `...${source.join(".")}`);
    else context.report(node, "obfuscation", `${source.join(".")}[]`, `${source.join(".")}[<computed>]`);
    return;
  }
  const path = resolver.declarationPath(node);
  if (path) reportForbidden(node, path, source, context);
}

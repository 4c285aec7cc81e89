import ts from "typescript";

/** An identifier that refers to a value, as opposed to a name being declared or a property name. */
export function isReferenceIdentifier(node: ts.Node): node is ts.Identifier {
  if (!ts.isIdentifier(node)) return false;
  const parent = node.parent as ts.Node & { name?: ts.Node; propertyName?: ts.Node; label?: ts.Node };
  if (ts.isShorthandPropertyAssignment(parent)) return true; // `{ process }` reads process
  if (ts.isQualifiedName(parent)) return false;
  return parent.name !== node && parent.propertyName !== node && parent.label !== node;
}

/** Type-only syntax: nothing in it runs, so nothing in it is looked at. */
export function isTypeOnly(node: ts.Node): boolean {
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return true;
  if (hasDeclareModifier(node)) return true; // `declare …` declares, it does not run
  if (ts.isExpressionWithTypeArguments(node)) {
    // `class A extends Base` evaluates Base; `implements`/interface `extends` are types.
    const clause = node.parent;
    return !(ts.isHeritageClause(clause) && clause.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(clause.parent));
  }
  return ts.isTypeNode(node);
}

export type Usage = "member" | "callee" | "inspect" | "alias" | "value";

/**
 * How an expression's value is used. A capability object used as a member base, called,
 * compared or bound to a name is still visible to the analysis; anything else lets it escape.
 */
export function usageOf(node: ts.Expression): Usage {
  let child: ts.Node = node;
  let parent = node.parent;
  while (parent && isTransparent(parent, child)) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return "inspect";
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === child) return "member";
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === child) return "callee";
  if (ts.isTypeOfExpression(parent) || ts.isExpressionStatement(parent) || ts.isVoidExpression(parent)) return "inspect";
  if (ts.isVariableDeclaration(parent) && parent.initializer === child) return "alias";
  if (ts.isBinaryExpression(parent)) {
    switch (parent.operatorToken.kind) {
      case ts.SyntaxKind.EqualsEqualsEqualsToken:
      case ts.SyntaxKind.ExclamationEqualsEqualsToken:
      case ts.SyntaxKind.EqualsEqualsToken:
      case ts.SyntaxKind.ExclamationEqualsToken:
        return "inspect";
      case ts.SyntaxKind.InstanceOfKeyword:
      case ts.SyntaxKind.InKeyword:
        return parent.right === child ? "inspect" : "value";
      case ts.SyntaxKind.CommaToken:
        return "inspect"; // the left operand is discarded; the right one was climbed past above
    }
  }
  return "value";
}

function isTransparent(parent: ts.Node, child: ts.Node): boolean {
  if (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isNonNullExpression(parent) || ts.isTypeAssertionExpression(parent) || ts.isAwaitExpression(parent)) return true;
  return ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.CommaToken && parent.right === child;
}

/** The node is assigned to, incremented, deleted, or a destructuring-assignment target. */
export function isWriteTarget(node: ts.Node): boolean {
  let child: ts.Node = node;
  let parent = node.parent;
  while (parent && ts.isParenthesizedExpression(parent)) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return false;
  if (ts.isBinaryExpression(parent)) {
    const kind = parent.operatorToken.kind;
    return parent.left === child && kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
  }
  if (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) {
    return parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken;
  }
  if (ts.isDeleteExpression(parent)) return true;
  if ((ts.isForInStatement(parent) || ts.isForOfStatement(parent)) && parent.initializer === child) return true;
  // [a.b, ...c.d] = list and ({ x: a.b } = object) write to a.b and c.d
  const inPattern =
    ts.isArrayLiteralExpression(parent) ||
    ts.isObjectLiteralExpression(parent) ||
    ts.isSpreadElement(parent) ||
    ts.isSpreadAssignment(parent) ||
    (ts.isPropertyAssignment(parent) && parent.initializer === child);
  return inPattern && isWriteTarget(parent);
}

/** The source text of a node on one line, shortened for feedback. */
export function excerpt(node: ts.Node, sourceFile: ts.SourceFile, max = 48): string {
  const text = node.getText(sourceFile).replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function hasDeclareModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword) ?? false);
}

/** Inside a `declare` statement, `declare global {}` or `declare module "x" {}`. */
export function isAmbient(node: ts.Node): boolean {
  for (let current: ts.Node | undefined = node; current; current = current.parent) {
    if (hasDeclareModifier(current)) return true;
  }
  return false;
}

export function skipWrappers(expression: ts.Expression): ts.Expression {
  let current = expression;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isNonNullExpression(current) || ts.isTypeAssertionExpression(current)) {
      current = current.expression;
    } else if (ts.isBinaryExpression(current) && current.operatorToken.kind === ts.SyntaxKind.CommaToken) {
      current = current.right; // (0, eval) is eval
    } else {
      return current;
    }
  }
}


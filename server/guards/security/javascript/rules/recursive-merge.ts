import ts from "typescript";
import type { Rule, RuleContext } from "../context";
import { excerpt, skipWrappers } from "../syntax-positions";

/** Calls that list an object's keys. */
const KEY_LISTS = new Set(["Object.keys", "Object.entries", "Reflect.ownKeys", "Object.getOwnPropertyNames"]);
/** A helper that merges into its first argument, by the names such helpers are given. */
const MERGE_HELPER = /merge|extend|mixin|defaults|deepassign|assigndeep/i;
/** Keys that walk from an object to a prototype every object shares. */
const DANGEROUS_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Methods that test a key against a list or a pattern: an allowlist or a denylist. */
const KEY_TESTS = new Set(["has", "includes", "indexOf", "test", "startsWith", "match"]);
/**
 * Own-property checks. They protect only on the target: `Object.hasOwn(target, "__proto__")` is
 * false, while a source from JSON.parse has an own "__proto__" key.
 */
const OWN_CHECKS = new Set(["hasOwn", "hasOwnProperty", "call"]);
const EQUALITY = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

interface KeyLoop {
  key: string;
  /** The object whose keys are listed, as written: writes back into it only see its own keys. */
  source: string | undefined;
  /** What is searched for the write and the recursive call. */
  body: ts.Node;
  /** The function the loop is in: its names tell a recursive call, its body holds the guards. */
  owner: ts.SignatureDeclaration | undefined;
}

/**
 * Prototype pollution through a recursive merge: a function that loops over an object's keys
 * (`for … in`, `Object.keys/entries`, `Reflect.ownKeys`, their `.forEach`) and, with a key `k` from
 * the input, both writes `target[k] = …` and recurses into `target[k]` (calling itself, a merge
 * helper, or `Object.assign(target[k], …)`). With `k === "__proto__"`, `target[k]` is
 * Object.prototype and the recursion writes into it. It passes when the function checks the key
 * (`k === "__proto__"`, `["__proto__", "constructor"].includes(k)`, an allowlist `.has(k)`, a pattern
 * `.test(k)`, `Object.hasOwn(target, k)`) or the target has no prototype (`Object.create(null)`,
 * `{ __proto__: null }`). A shallow copy (`for (k in s) t[k] = s[k]`) changes only `t`'s prototype.
 */
export const checkRecursiveMerge: Rule = (node, context) => {
  const loop = keyLoop(node, context);
  if (!loop) return;
  const write = pollutingWrite(loop, context);
  if (!write) return;
  const shown = `recursive merge into ${excerpt(write.expression, context.sourceFile, 24)}[${loop.key}]`;
  context.report(write, "prototype-pollution", "recursive-merge", shown);
};

function keyLoop(node: ts.Node, context: RuleContext): KeyLoop | undefined {
  const found = keyAndBody(node, context);
  return found && { ...found, owner: ts.findAncestor(node.parent, ts.isFunctionLike) };
}

function keyAndBody(node: ts.Node, context: RuleContext): Omit<KeyLoop, "owner"> | undefined {
  if (ts.isForInStatement(node)) {
    const key = loopVariable(node.initializer, false);
    return key === undefined ? undefined : { key, body: node.statement, source: textOf(node.expression) };
  }
  if (ts.isForOfStatement(node) && listsKeys(node.expression, context)) {
    const key = loopVariable(node.initializer, true);
    return key === undefined ? undefined : { key, body: node.statement, source: listedObject(node.expression) };
  }
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "forEach" && listsKeys(node.expression.expression, context)) {
    const callback = node.arguments[0] && skipWrappers(node.arguments[0]);
    if (!callback || (!ts.isArrowFunction(callback) && !ts.isFunctionExpression(callback))) return undefined;
    const parameter = callback.parameters[0]?.name;
    const key = parameter && (ts.isIdentifier(parameter) ? parameter.text : firstOfArrayPattern(parameter));
    return key === undefined ? undefined : { key, body: callback.body, source: listedObject(node.expression.expression) };
  }
  return undefined;
}

function textOf(expression: ts.Expression): string {
  return skipWrappers(expression).getText();
}

/** `source` in `Object.keys(source)`. */
function listedObject(expression: ts.Expression): string | undefined {
  const call = skipWrappers(expression);
  return ts.isCallExpression(call) && call.arguments[0] ? textOf(call.arguments[0]) : undefined;
}

function listsKeys(expression: ts.Expression, context: RuleContext): boolean {
  const node = skipWrappers(expression);
  return ts.isCallExpression(node) && KEY_LISTS.has(context.resolver.pathOf(node.expression)?.join(".") ?? "");
}

function loopVariable(initializer: ts.ForInitializer, entries: boolean): string | undefined {
  if (ts.isIdentifier(initializer)) return initializer.text;
  if (!ts.isVariableDeclarationList(initializer) || initializer.declarations.length !== 1) return undefined;
  const name = initializer.declarations[0]?.name;
  if (!name) return undefined;
  if (ts.isIdentifier(name)) return name.text;
  return entries ? firstOfArrayPattern(name) : undefined;
}

function firstOfArrayPattern(pattern: ts.BindingName): string | undefined {
  if (!ts.isArrayBindingPattern(pattern)) return undefined;
  const first = pattern.elements[0];
  return first && ts.isBindingElement(first) && ts.isIdentifier(first.name) ? first.name.text : undefined;
}

/** `target[k] = …` whose `target[k]` is also recursed into, in a function with no guard. */
function pollutingWrite(loop: KeyLoop, context: RuleContext): ts.ElementAccessExpression | undefined {
  const writes: ts.ElementAccessExpression[] = [];
  const recursedInto = new Set<string>();
  const names = ownerNames(loop.owner);
  const targetText = (access: ts.ElementAccessExpression) => skipWrappers(access.expression).getText(context.sourceFile);
  walk(loop.body, (node) => {
    if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) {
      const left = skipWrappers(node.left);
      if (ts.isElementAccessExpression(left) && isKey(left.argumentExpression, loop.key)) writes.push(left);
    }
    if (ts.isCallExpression(node) && isMergeCall(node, names, context)) {
      for (const argument of node.arguments) {
        walk(argument, (inner) => {
          if (ts.isElementAccessExpression(inner) && isKey(inner.argumentExpression, loop.key)) recursedInto.add(targetText(inner));
        });
      }
    }
  });
  // `for (k in x) x[k] = f(x[k])` transforms x in place: its own keys only, never its prototype.
  const write = writes.sort((a, b) => a.pos - b.pos).find((candidate) => recursedInto.has(targetText(candidate)) && targetText(candidate) !== loop.source);
  if (!write) return undefined;
  const scope = loop.owner ?? context.sourceFile;
  return isProtected(scope, loop.key, targetText(write), context) ? undefined : write;
}

/** Whether a function guards a key for a target, asked once per function, key and target. */
const protections = new WeakMap<ts.Node, Map<string, boolean>>();

function isProtected(scope: ts.Node, key: string, target: string, context: RuleContext): boolean {
  const known = protections.get(scope) ?? new Map<string, boolean>();
  protections.set(scope, known);
  const memoKey = `${key}\u0000${target}`;
  const cached = known.get(memoKey);
  if (cached !== undefined) return cached;
  const found = hasKeyGuard(scope, key, target, context) || hasNullPrototype(scope, target);
  known.set(memoKey, found);
  return found;
}

function isAssignment(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

function isKey(expression: ts.Expression, key: string): boolean {
  const node = skipWrappers(expression);
  return ts.isIdentifier(node) && node.text === key;
}

/** The names the function is called by: its own, the variable or property holding it. */
function ownerNames(owner: ts.SignatureDeclaration | undefined): Set<string> {
  const names = new Set<string>();
  if (!owner) return names;
  if (owner.name && (ts.isIdentifier(owner.name) || ts.isStringLiteral(owner.name))) names.add(owner.name.text);
  const holder = owner.parent;
  if ((ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) && ts.isIdentifier(holder.name)) names.add(holder.name.text);
  return names;
}

function isMergeCall(call: ts.CallExpression, names: ReadonlySet<string>, context: RuleContext): boolean {
  const callee = skipWrappers(call.expression);
  if (context.resolver.pathOf(callee)?.join(".") === "Object.assign") return true;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  return name !== undefined && (names.has(name) || MERGE_HELPER.test(name));
}

/** Visits the node and what is under it; nested functions only when asked to. */
function walk(start: ts.Node, visit: (node: ts.Node) => void, intoFunctions = false): void {
  const stack: ts.Node[] = [start];
  while (stack.length > 0) {
    const node = stack.pop() as ts.Node;
    visit(node);
    ts.forEachChild(node, (child) => {
      if (intoFunctions || !ts.isFunctionLike(child)) stack.push(child);
    });
  }
}

/** Anywhere in the function, including callbacks: the key compared with a dangerous name or tested. */
function hasKeyGuard(scope: ts.Node, key: string, target: string, context: RuleContext): boolean {
  let guarded = false;
  walk(scope, (node) => {
    if (guarded) return;
    if (ts.isStringLiteralLike(node) && DANGEROUS_KEYS.has(node.text)) {
      guarded = comparesWithKey(node, key);
    } else if (ts.isCallExpression(node)) {
      const method = ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : undefined;
      const receiver = ts.isPropertyAccessExpression(node.expression) ? node.expression.expression : undefined;
      const usesKey = node.arguments.some((argument) => isKey(argument, key)) || (receiver !== undefined && isKey(receiver, key));
      if (!usesKey || method === undefined) return;
      if (KEY_TESTS.has(method)) guarded = true;
      else if (OWN_CHECKS.has(method)) {
        const owner = method === "hasOwnProperty" ? receiver : node.arguments[0];
        guarded = owner !== undefined && skipWrappers(owner).getText(context.sourceFile) === target;
      }
    }
  }, true);
  return guarded;
}

/**
 * A dangerous name used against the key: `key === "__proto__"`, `case "constructor":` in a
 * `switch (key)`, `Object.is(key, "prototype")`, or listed in an array (`[…].includes(key)`,
 * a denylist the function keeps). `value.name === "constructor"` is about something else.
 */
function comparesWithKey(literal: ts.StringLiteralLike, key: string): boolean {
  const parent = literal.parent;
  if (ts.isArrayLiteralExpression(parent)) return true;
  if (ts.isBinaryExpression(parent) && EQUALITY.has(parent.operatorToken.kind)) return mentions(parent.left === literal ? parent.right : parent.left, key);
  if (ts.isCaseClause(parent)) return mentions(parent.parent.parent.expression, key);
  if (ts.isCallExpression(parent)) return parent.arguments.some((argument) => mentions(argument, key)) || mentions(parent.expression, key);
  return false;
}

/** The expression uses the key variable: `key`, `key.toLowerCase()`, `String(key)`. */
function mentions(expression: ts.Node, key: string): boolean {
  if (ts.isIdentifier(expression)) return expression.text === key;
  return ts.forEachChild(expression, (child) => (ts.isFunctionLike(child) ? undefined : mentions(child, key) || undefined)) ?? false;
}

/** The target was made without a prototype in this function: `const out = Object.create(null)`. */
function hasNullPrototype(scope: ts.Node, target: string): boolean {
  let found = false;
  walk(scope, (node) => {
    if (found || !ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || node.name.text !== target || !node.initializer) return;
    const value = skipWrappers(node.initializer);
    const createNull = ts.isCallExpression(value) && value.expression.getText() === "Object.create" && value.arguments[0]?.kind === ts.SyntaxKind.NullKeyword;
    const literalNull = ts.isObjectLiteralExpression(value) && value.properties.some((property) => ts.isPropertyAssignment(property) && propertyText(property.name) === "__proto__" && property.initializer.kind === ts.SyntaxKind.NullKeyword);
    found = createNull || literalNull;
  }, true);
  return found;
}

function propertyText(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

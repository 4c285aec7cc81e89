import ts from "typescript";
import type { Rule, RuleContext } from "../context";
import { isReferenceIdentifier, isWriteTarget, skipWrappers } from "../syntax-positions";

/** Globals test runners give the tests (vitest/jest globals, node:test, chai's). */
const HELPER_GLOBALS = new Set([
  "expect", "test", "it", "describe", "suite", "assert", "beforeEach", "afterEach", "beforeAll", "afterAll",
  "vi", "jest", "chai", "should", "AssertionError", "expectTypeOf", "assertType",
]);

/** Modules that hand out assertion helpers, by the name the feedback shows. */
const ASSERTION_MODULES: Record<string, string> = {
  assert: "assert", "assert/strict": "assert", "node:assert": "assert", "node:assert/strict": "assert",
  chai: "chai", vitest: "vitest", "@jest/globals": "jest", "node:test": "test", expect: "expect", "@vitest/expect": "expect",
  "power-assert": "assert", should: "should", "uvu/assert": "assert",
};
/** Modules whose named exports are the globals themselves: `import { expect } from "vitest"` is `expect`. */
const RUNNER_MODULES = new Set(["vitest", "jest", "test"]);

/** Matchers every expect already has: redefining them through expect.extend changes what they check. */
const BUILTIN_MATCHERS = new Set([
  "toBe", "toEqual", "toStrictEqual", "toBeTruthy", "toBeFalsy", "toBeNull", "toBeUndefined", "toBeDefined", "toBeNaN",
  "toContain", "toContainEqual", "toHaveLength", "toHaveProperty", "toMatch", "toMatchObject", "toThrow", "toThrowError",
  "toBeGreaterThan", "toBeGreaterThanOrEqual", "toBeLessThan", "toBeLessThanOrEqual", "toBeCloseTo", "toBeInstanceOf",
  "toHaveBeenCalled", "toHaveBeenCalledWith", "toHaveBeenCalledTimes", "toHaveReturned", "toHaveReturnedWith",
  "toMatchSnapshot", "toMatchInlineSnapshot", "toSatisfy", "toBeTypeOf", "toBeOneOf", "resolves", "rejects", "not",
]);

const MUTATORS = new Set([
  "Object.defineProperty", "Object.defineProperties", "Object.assign", "Object.setPrototypeOf",
  "Reflect.set", "Reflect.defineProperty", "Reflect.deleteProperty", "Reflect.setPrototypeOf",
]);
const MODULE_MOCKERS = new Set(["vi.mock", "vi.doMock", "jest.mock", "jest.doMock", "jest.unstable_mockModule", "jest.setMock"]);
const SPIES = new Set(["vi.spyOn", "jest.spyOn", "jest.replaceProperty", "vi.stubGlobal"]);
const MAX_DEPTH = 12;

/**
 * Changes to the helpers the tests judge the code with: assigning, redefining or deleting `expect`,
 * `assert.equal` & co., `test`, `it`, `describe`, directly, through the global object
 * (`globalThis.expect = …`, `Object.defineProperty(globalThis, "expect", …)`), through a module
 * (`require("assert").equal = …`, `import assert from "node:assert"`), redefining built-in matchers
 * with `expect.extend({ toBe … })`, mocking the assertion modules, or spying on them. Prototype writes
 * (`Error.prototype`, `Object.prototype` getters) are prototype pollution, reported by that rule.
 * A local `expected`, an own `assertValid` method and new matcher names pass.
 */
export const checkTestTampering: Rule = (node, context) => {
  if (ts.isCallExpression(node)) {
    checkCall(node, context);
    return;
  }
  const isAccess = ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node);
  if (!isAccess && !isReferenceIdentifier(node)) return;
  if (!isWriteTarget(node)) return;
  const helper = helperName(node as ts.Expression, context, 0);
  if (helper === undefined) return;
  const verb = ts.isDeleteExpression(node.parent) ? "deletion of" : "assignment to";
  context.report(node, "test-tampering", helper, `${verb} ${helper}`);
};

/** The last name of every callee checkCall looks at, to skip all other calls cheaply. */
const CALLED_NAMES = new Set([...MUTATORS, ...MODULE_MOCKERS, ...SPIES, "expect.extend"].map((name) => name.slice(name.lastIndexOf(".") + 1)));

function checkCall(call: ts.CallExpression, context: RuleContext): void {
  const method = skipWrappers(call.expression);
  const lastName = ts.isPropertyAccessExpression(method) ? method.name.text : ts.isElementAccessExpression(method) ? context.resolver.memberKey(method) : undefined;
  if (lastName === undefined || !CALLED_NAMES.has(lastName)) return;
  const callee = context.resolver.pathOf(call.expression)?.join(".") ?? helperName(call.expression, context, 0);
  if (callee === undefined) return;
  const [first, second] = call.arguments;
  if (MUTATORS.has(callee) && first) {
    const target = helperName(first, context, 0) ?? globalHelperKey(first, second, context);
    if (target !== undefined) context.report(call, "test-tampering", target, `${callee}(${target})`);
  } else if (callee === "expect.extend" && first && ts.isObjectLiteralExpression(skipWrappers(first))) {
    const redefined = (skipWrappers(first) as ts.ObjectLiteralExpression).properties.map((property) => property.name && propertyName(property.name)).find((name) => name !== undefined && BUILTIN_MATCHERS.has(name));
    if (redefined) context.report(call, "test-tampering", "expect.extend", `expect.extend(${redefined})`);
  } else if (MODULE_MOCKERS.has(callee) && first) {
    const name = context.resolver.constantOf(first);
    if (typeof name === "string" && ASSERTION_MODULES[name]) context.report(call, "test-tampering", callee, `${callee}(${JSON.stringify(name)})`);
  } else if (SPIES.has(callee) && first) {
    const target = callee === "vi.stubGlobal" ? globalKey(first, context) : helperName(first, context, 0) ?? globalHelperKey(first, second, context);
    if (target !== undefined) context.report(call, "test-tampering", target, `${callee}(${target})`);
  }
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;
}

/** `Object.defineProperty(globalThis, "expect", …)`: the global object with a helper's name. */
function globalHelperKey(object: ts.Expression, key: ts.Expression | undefined, context: RuleContext): string | undefined {
  const path = context.resolver.pathOf(object);
  if (!key || path?.length !== 1 || path[0] !== "globalThis") return undefined;
  return globalKey(key, context);
}

function globalKey(key: ts.Expression, context: RuleContext): string | undefined {
  const name = context.resolver.constantOf(key);
  return typeof name === "string" && HELPER_GLOBALS.has(name) ? name : undefined;
}

/** The helper an expression denotes: "expect", "assert.equal", "chai.assert"; undefined otherwise. */
function helperName(expression: ts.Expression, context: RuleContext, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node = skipWrappers(expression);
  const { resolver } = context;
  if (ts.isIdentifier(node)) {
    const declaration = resolver.declarationOf(node);
    if (!declaration) return HELPER_GLOBALS.has(node.text) ? node.text : undefined;
    return declaredHelper(declaration, context, depth + 1);
  }
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const key = resolver.memberKey(node);
    const base = helperName(node.expression, context, depth + 1);
    if (key === undefined) return base === undefined ? undefined : `${base}[<computed>]`; // for (k in assert) assert[k] = …
    if (base !== undefined) return `${base}.${key}`;
    const path = resolver.pathOf(node.expression);
    return path?.length === 1 && path[0] === "globalThis" && HELPER_GLOBALS.has(key) ? key : undefined;
  }
  if (ts.isCallExpression(node) && resolver.pathOf(node.expression)?.join(".") === "require" && node.arguments[0]) {
    const name = resolver.constantOf(node.arguments[0]);
    return typeof name === "string" ? ASSERTION_MODULES[name] : undefined;
  }
  return undefined;
}

function declaredHelper(declaration: ts.Declaration, context: RuleContext, depth: number): string | undefined {
  if (ts.isVariableDeclaration(declaration)) {
    return declaration.initializer && ts.isIdentifier(declaration.name) ? helperName(declaration.initializer, context, depth) : undefined;
  }
  if (ts.isBindingElement(declaration) && ts.isObjectBindingPattern(declaration.parent) && ts.isVariableDeclaration(declaration.parent.parent)) {
    const source = declaration.parent.parent.initializer;
    const key = declaration.propertyName ?? declaration.name;
    const base = source && helperName(source, context, depth);
    return base !== undefined && ts.isIdentifier(key) ? memberOfModule(base, key.text) : undefined;
  }
  if (ts.isImportClause(declaration) || ts.isNamespaceImport(declaration) || ts.isImportSpecifier(declaration)) {
    const importDeclaration = ts.findAncestor(declaration, ts.isImportDeclaration);
    const specifier = importDeclaration && ts.isStringLiteral(importDeclaration.moduleSpecifier) ? importDeclaration.moduleSpecifier.text : undefined;
    const module = specifier === undefined ? undefined : ASSERTION_MODULES[specifier];
    if (module === undefined || !ts.isImportSpecifier(declaration)) return module;
    const imported = (declaration.propertyName ?? declaration.name).text;
    return imported === "default" ? module : memberOfModule(module, imported);
  }
  return undefined;
}

/** `vitest`'s `expect` is the global expect; `assert`'s `equal` is assert.equal. */
function memberOfModule(module: string, member: string): string {
  return RUNNER_MODULES.has(module) && HELPER_GLOBALS.has(member) ? member : `${module}.${member}`;
}

import ts from "typescript";
import { normalizeModuleName, type AllowPolicy } from "../allow-policy";
import { createConstantEvaluator, type Constant } from "./constant-value";
import { isAmbient, skipWrappers } from "./syntax-positions";
import { CONSTRUCTOR, GLOBAL_OBJECT_NAMES, MAYBE_FUNCTION_CONSTRUCTOR, moduleRoot, moduleRule, PROTOTYPE, TRACKED_GLOBALS, type Path } from "./policy";

export interface Resolver {
  /** What the expression denotes: ["process", "env"], ["fs"], ["Function"]; undefined for plain values. */
  pathOf(expression: ts.Expression): Path | undefined;
  /** A constant value of the expression, if it can be computed. */
  constantOf(expression: ts.Expression): Constant | undefined;
  /** The constant property name of `a.b` / `a["b"]`, if known. */
  memberKey(access: ts.PropertyAccessExpression | ts.ElementAccessExpression): string | undefined;
  /** The module path an import/require specifier gives, undefined when it is harmless or allowed. */
  modulePath(specifier: string): Path | undefined;
  /** Definitely a function or class value (`() => {}`, a function declaration's name, a global function). */
  isFunctionLike(expression: ts.Expression): boolean;
  /** What a declared name is bound to: an import specifier, a destructured property, an alias. */
  declarationPath(declaration: ts.Declaration): Path | undefined;
  /** The identifier names something this file declares (a variable, parameter, import). */
  isDeclaredHere(identifier: ts.Identifier): boolean;
  /** What an object binding pattern destructures: `process` in `const { env } = process`. */
  patternSourcePath(pattern: ts.ObjectBindingPattern): Path | undefined;
  /** The declaration in this file a name refers to; undefined for a global. */
  declarationOf(identifier: ts.Identifier): ts.Declaration | undefined;
  /** The initializer of the `const` a name refers to, if it is one. */
  constInitializer(identifier: ts.Identifier): ts.Expression | undefined;
}

function isTopLevelThis(node: ts.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (ts.isFunctionLike(current) && !ts.isArrowFunction(current)) return false;
    if (ts.isClassLike(current)) return false;
  }
  return true;
}

/**
 * Declarations that create a run-time binding. In JavaScript files the compiler also records
 * assignments such as `process.x = 1` as "declarations" of `process`, and a type or interface may
 * share a value's name; neither shadows the global.
 */
function isValueDeclaration(node: ts.Declaration): boolean {
  return (
    ts.isVariableDeclaration(node) ||
    ts.isParameter(node) ||
    ts.isBindingElement(node) ||
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isClassDeclaration(node) ||
    ts.isClassExpression(node) ||
    ts.isEnumDeclaration(node) ||
    (ts.isModuleDeclaration(node) && isInstantiated(node)) ||
    ts.isImportClause(node) ||
    ts.isNamespaceImport(node) ||
    ts.isImportSpecifier(node) ||
    ts.isImportEqualsDeclaration(node)
  );
}

/** A namespace with only types in it creates no value (`namespace process { type T = 1 }`). */
function isInstantiated(node: ts.ModuleDeclaration): boolean {
  const body = node.body;
  if (!body) return false;
  if (ts.isModuleDeclaration(body)) return isInstantiated(body);
  if (!ts.isModuleBlock(body)) return false;
  return body.statements.some((statement) => !ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement) && !(ts.isModuleDeclaration(statement) && !isInstantiated(statement)));
}

const same = (path: Path | undefined, ...expected: string[]) => path !== undefined && path.length === expected.length && path.every((segment, index) => segment === expected[index]);

export function createResolver(sourceFile: ts.SourceFile, checker: ts.TypeChecker, allow: AllowPolicy): Resolver {
  const declarationCache = new Map<ts.Identifier, ts.Declaration | null>();
  const bindingCache = new Map<ts.Declaration, Path | null>();
  const inProgress = new Set<ts.Declaration>();

  /** The non-ambient declaration in this file the identifier refers to; undefined for a global. */
  const localDeclaration = (identifier: ts.Identifier): ts.Declaration | undefined => {
    const cached = declarationCache.get(identifier);
    if (cached !== undefined) return cached ?? undefined;
    let symbol: ts.Symbol | undefined;
    try {
      symbol = ts.isShorthandPropertyAssignment(identifier.parent) && identifier.parent.name === identifier
        ? checker.getShorthandAssignmentValueSymbol(identifier.parent)
        : checker.getSymbolAtLocation(identifier);
    } catch {
      symbol = undefined; // treat as the global: the stricter reading
    }
    // `declare const process: any` declares nothing at run time: the name is still the global.
    const declaration = symbol?.declarations?.find((candidate) => candidate.getSourceFile() === sourceFile && isValueDeclaration(candidate) && !isAmbient(candidate));
    declarationCache.set(identifier, declaration ?? null);
    return declaration;
  };

  const constInitializer = (identifier: ts.Identifier): ts.Expression | undefined => {
    const declaration = localDeclaration(identifier);
    if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) return undefined;
    const list = declaration.parent;
    return ts.isVariableDeclarationList(list) && list.flags & ts.NodeFlags.Const ? declaration.initializer : undefined;
  };

  const modulePath = (specifier: string): Path | undefined => {
    const name = normalizeModuleName(specifier);
    if (allow.moduleAllowed(name)) return undefined;
    if (name === "process") return ["process"];
    return moduleRule(specifier) ? [moduleRoot(name)] : undefined;
  };

  const modulePathOfArgument = (argument: ts.Expression | undefined): Path | undefined => {
    if (!argument) return undefined;
    const value = constantOf(argument);
    return typeof value === "string" ? modulePath(value) : undefined;
  };

  const globalPath = (name: string): Path | undefined => {
    if (GLOBAL_OBJECT_NAMES.has(name)) return ["globalThis"];
    return TRACKED_GLOBALS.has(name) ? [name] : undefined;
  };

  const isFunctionLike = (expression: ts.Expression): boolean => {
    const node = skipWrappers(expression);
    if (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isClassExpression(node)) return true;
    if (ts.isIdentifier(node)) {
      const declaration = localDeclaration(node);
      if (!declaration) return globalPath(node.text) !== undefined && !same(globalPath(node.text), "globalThis");
      if (ts.isFunctionDeclaration(declaration) || ts.isClassDeclaration(declaration)) return true;
      return ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined && isFunctionLike(declaration.initializer);
    }
    return false;
  };

  /** `base.key`, with the global object, constructors and prototypes folded in. */
  const join = (base: Path | undefined, key: string, object: ts.Expression | undefined): Path | undefined => {
    if (key === "__proto__") return [PROTOTYPE];
    if (key === "constructor") {
      if (object && isFunctionLike(object)) return ["Function"];
      if (base) {
        const [root] = base;
        if (root === CONSTRUCTOR || root === MAYBE_FUNCTION_CONSTRUCTOR || root === "Function") return ["Function"];
        if (same(base, "globalThis")) return [CONSTRUCTOR]; // the global object's class, Object
        if (root !== PROTOTYPE) return ["Function"]; // a global or module member: a function or an object with one
        return [CONSTRUCTOR];
      }
      const inner = object && skipWrappers(object);
      return inner && (ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner) || ts.isCallExpression(inner)) ? [MAYBE_FUNCTION_CONSTRUCTOR] : [CONSTRUCTOR];
    }
    if (!base) return undefined;
    if (same(base, "globalThis")) return globalPath(key);
    if (key === "prototype" && (same(base, CONSTRUCTOR) || same(base, MAYBE_FUNCTION_CONSTRUCTOR))) return [PROTOTYPE];
    return [...base, key];
  };

  const memberKey = (access: ts.PropertyAccessExpression | ts.ElementAccessExpression): string | undefined => {
    if (ts.isPropertyAccessExpression(access)) return access.name.text;
    const value = constantOf(access.argumentExpression);
    return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
  };

  const bindingPath = (declaration: ts.Declaration): Path | undefined => {
    const cached = bindingCache.get(declaration);
    if (cached !== undefined) return cached ?? undefined;
    if (inProgress.has(declaration)) return undefined;
    inProgress.add(declaration);
    const path = computeBindingPath(declaration);
    inProgress.delete(declaration);
    bindingCache.set(declaration, path ?? null);
    return path;
  };

  const computeBindingPath = (declaration: ts.Declaration): Path | undefined => {
    if (ts.isVariableDeclaration(declaration)) return declaration.initializer && ts.isIdentifier(declaration.name) ? pathOf(declaration.initializer) : undefined;
    if (ts.isBindingElement(declaration)) return bindingElementPath(declaration);
    if (ts.isImportClause(declaration)) return declaration.isTypeOnly ? undefined : importedModule(declaration.parent);
    if (ts.isNamespaceImport(declaration)) return importedModule(declaration.parent.parent);
    if (ts.isImportSpecifier(declaration)) {
      if (declaration.isTypeOnly) return undefined;
      const module = importedModule(declaration.parent.parent.parent);
      const imported = (declaration.propertyName ?? declaration.name).text;
      return module && (imported === "default" ? module : [...module, imported]);
    }
    if (ts.isImportEqualsDeclaration(declaration)) {
      const reference = declaration.moduleReference;
      return ts.isExternalModuleReference(reference) && ts.isStringLiteral(reference.expression) ? modulePath(reference.expression.text) : undefined;
    }
    return undefined;
  };

  const importedModule = (declaration: ts.Node): Path | undefined =>
    ts.isImportDeclaration(declaration) && !declaration.importClause?.isTypeOnly && ts.isStringLiteral(declaration.moduleSpecifier) ? modulePath(declaration.moduleSpecifier.text) : undefined;

  /** `const { env } = process` gives `env` the path process.env; nested patterns compose. */
  const bindingElementPath = (element: ts.BindingElement): Path | undefined => {
    if (element.dotDotDotToken) return undefined;
    const pattern = element.parent;
    if (!ts.isObjectBindingPattern(pattern)) return undefined;
    const source = pattern.parent;
    const sourceExpression = ts.isVariableDeclaration(source) ? source.initializer : undefined;
    const key = bindingElementKey(element);
    return key === undefined ? undefined : join(patternSourcePath(pattern), key, sourceExpression);
  };

  const patternSourcePath = (pattern: ts.ObjectBindingPattern): Path | undefined => {
    const source = pattern.parent;
    if (ts.isVariableDeclaration(source)) return source.initializer ? pathOf(source.initializer) : undefined;
    return ts.isBindingElement(source) ? bindingElementPath(source) : undefined;
  };

  const bindingElementKey = (element: ts.BindingElement): string | undefined => {
    const name = element.propertyName ?? element.name;
    if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
    if (ts.isComputedPropertyName(name)) {
      const value = constantOf(name.expression);
      return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
    }
    return undefined;
  };

  // Every rule asks about the same nodes; each is resolved once.
  const pathCache = new Map<ts.Node, Path | null>();
  const pathOf = (expression: ts.Expression): Path | undefined => {
    const cached = pathCache.get(expression);
    if (cached !== undefined) return cached ?? undefined;
    const path = computePath(expression);
    pathCache.set(expression, path ?? null);
    return path;
  };

  const computePath = (expression: ts.Expression): Path | undefined => {
    const node = skipWrappers(expression);
    if (ts.isIdentifier(node)) {
      const declaration = localDeclaration(node);
      return declaration ? bindingPath(declaration) : globalPath(node.text);
    }
    if (node.kind === ts.SyntaxKind.ThisKeyword) return isTopLevelThis(node) ? ["globalThis"] : undefined;
    if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) return ["import.meta"];
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const key = memberKey(node);
      return key === undefined ? undefined : join(pathOf(node.expression), key, node.expression);
    }
    if (ts.isAwaitExpression(node)) {
      // `await import("fs")` is the module; `import("fs")` alone is only a promise of it.
      const awaited = skipWrappers(node.expression);
      const isImport = ts.isCallExpression(awaited) && awaited.expression.kind === ts.SyntaxKind.ImportKeyword;
      return isImport ? modulePathOfArgument(awaited.arguments[0]) : pathOf(awaited);
    }
    if (ts.isCallExpression(node)) return callPath(node);
    return undefined;
  };

  const callPath = (call: ts.CallExpression): Path | undefined => {
    if (call.expression.kind === ts.SyntaxKind.ImportKeyword) return undefined;
    const callee = pathOf(call.expression);
    if (!callee) return undefined;
    const [first, second] = call.arguments;
    if (same(callee, "require") || same(callee, "process", "getBuiltinModule") || same(callee, "import.meta", "require")) return modulePathOfArgument(first);
    if (same(callee, "Module", "createRequire")) return ["require"];
    if (same(callee, "Object", "getPrototypeOf") || same(callee, "Reflect", "getPrototypeOf")) {
      return first && isFunctionLike(first) ? ["Function", "prototype"] : [PROTOTYPE];
    }
    if (same(callee, "Reflect", "get") && first && second) {
      const key = constantOf(second);
      return typeof key === "string" ? join(pathOf(first), key, first) : undefined;
    }
    return undefined;
  };

  const constantOf = createConstantEvaluator({ pathOf, constInitializer });

  return { pathOf, constantOf, memberKey, modulePath, isFunctionLike, declarationPath: bindingPath, patternSourcePath, isDeclaredHere: (identifier) => localDeclaration(identifier) !== undefined, declarationOf: localDeclaration, constInitializer };
}

import ts from "typescript";
import { normalizeModuleName } from "../../allow-policy";
import type { Rule, RuleContext } from "../context";
import { moduleRule } from "../policy";
import { excerpt } from "../syntax-positions";

type LoadKind = "import" | "import()" | "require";

/**
 * Loading a forbidden module (node built-ins with I/O, child_process, vm, … and third-party
 * wrappers of them), in any form: import declarations, `export … from`, `import x = require()`,
 * `require()`, `import()`. A module name that cannot be computed is a finding too, whatever it
 * would have been. Type-only imports load nothing and pass.
 */
export const checkModules: Rule = (node, context) => {
  if (ts.isImportDeclaration(node)) {
    if (!isTypeOnlyImport(node) && ts.isStringLiteral(node.moduleSpecifier)) checkModule(node.moduleSpecifier.text, "import", node, context);
  } else if (ts.isExportDeclaration(node)) {
    if (!node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) checkModule(node.moduleSpecifier.text, "import", node, context);
  } else if (ts.isImportEqualsDeclaration(node)) {
    const reference = node.moduleReference;
    if (!node.isTypeOnly && ts.isExternalModuleReference(reference) && ts.isStringLiteral(reference.expression)) checkModule(reference.expression.text, "require", node, context);
  } else if (ts.isCallExpression(node)) {
    const kind = loadKind(node, context);
    if (kind) checkLoadCall(node, kind, context);
  }
};

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import "fs"` runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  // `import { type Stats } from "fs"` is elided by the compiler when every specifier is a type.
  return !clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function loadKind(call: ts.CallExpression, context: RuleContext): LoadKind | undefined {
  if (call.expression.kind === ts.SyntaxKind.ImportKeyword) return "import()";
  const callee = context.resolver.pathOf(call.expression);
  if (!callee) return undefined;
  const isRequire = callee.length === 1 && callee[0] === "require";
  const isGetBuiltin = callee.length === 2 && callee[0] === "process" && callee[1] === "getBuiltinModule";
  const isMetaRequire = callee.length === 2 && callee[0] === "import.meta" && callee[1] === "require";
  return isRequire || isGetBuiltin || isMetaRequire ? "require" : undefined;
}

function checkLoadCall(call: ts.CallExpression, kind: LoadKind, context: RuleContext): void {
  const [argument] = call.arguments;
  if (!argument) return;
  const name = context.resolver.constantOf(argument);
  if (typeof name === "string") {
    checkModule(name, kind, call, context);
    return;
  }
  const construct = kind === "import()" ? `import(${excerpt(argument, context.sourceFile, 24)})` : `require(${excerpt(argument, context.sourceFile, 24)})`;
  context.report(call, "builtin-module", kind === "import()" ? "import()" : "require()", construct);
}

function checkModule(specifier: string, kind: LoadKind, node: ts.Node, context: RuleContext): void {
  const rule = moduleRule(specifier);
  if (!rule) return;
  const name = normalizeModuleName(specifier);
  if (context.allow.moduleAllowed(name) || context.allow.memberOfModuleAllowed(name)) return;
  const shown = JSON.stringify(specifier);
  const construct = kind === "require" ? `require(${shown})` : kind === "import()" ? `import(${shown})` : `import ${shown}`;
  context.report(node, rule, name, construct);
}

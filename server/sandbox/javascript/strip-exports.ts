import type * as TS from "typescript";

/**
 * Makes an ES module's exports plain global declarations, so tests written in the global style
 * (evaluated after the artifact, reaching its functions by name, as 001's TestGuard does) still
 * see them, and lists what the module exports, so tests that import or require the artifact get
 * the same bindings (prepare-source.ts turns the list into the module's exports):
 *   export function add() {}        -> function add() {}            exports add
 *   export default class X {}       -> class X {}                   exports default = X
 *   export const y = 1              -> const y = 1                  exports y
 *   export default function () {}   -> var _default = function () {}  exports default = _default
 *   export default 42               -> var _default = 42            exports default = _default
 *   export { a as b }               -> (removed) + `var b = a;`     exports b = a
 *   export = value (TypeScript)     -> module.exports = value
 * The edits are made in the source text, keyword by keyword, replacing with the same number of
 * characters where possible: positions in the result match the original, so the transpiler's
 * source map (and every line number in a message) still points into the code as written.
 * Re-exports from other modules (`export * from "x"`) are left to the transpiler, which turns
 * them into require() calls that the sandbox resolves (or refuses) at run time.
 */
export interface StrippedSource {
  readonly code: string;
  /** Declarations for renamed exports, to append after the transpiled code. */
  readonly aliases: string;
  /** [exported name, local binding] for every value the module exports, in source order. */
  readonly exports: ReadonlyArray<readonly [string, string]>;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const DEFAULT_LOCAL = "_default";
const DEFAULT_BINDING = `var ${DEFAULT_LOCAL} =`;
const EXPORT_EQUALS = "module.exports =";

function blank(source: string, start: number, end: number): Edit {
  return { start, end, text: source.slice(start, end).replace(/[^\n\r]/g, " ") };
}

function replace(start: number, end: number, text: string): Edit {
  return { start, end, text: text.length < end - start ? text.padEnd(end - start) : text };
}

function isAnonymousDeclaration(ts: typeof TS, statement: TS.Statement): boolean {
  return (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name === undefined;
}

function bindingNames(ts: typeof TS, name: TS.BindingName, into: string[]): void {
  if (ts.isIdentifier(name)) {
    into.push(name.text);
    return;
  }
  for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(ts, element.name, into);
}

/** The value bindings a declaration introduces (none for types, interfaces, `declare`, overload signatures). */
function declaredNames(ts: typeof TS, statement: TS.Statement, modifiers: readonly TS.ModifierLike[]): string[] {
  if (modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword)) return [];
  if (ts.isFunctionDeclaration(statement)) return statement.name && statement.body ? [statement.name.text] : [];
  if (ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) return statement.name ? [statement.name.text] : [];
  if (ts.isModuleDeclaration(statement)) return ts.isIdentifier(statement.name) ? [statement.name.text] : [];
  if (ts.isVariableStatement(statement)) {
    const names: string[] = [];
    for (const declaration of statement.declarationList.declarations) bindingNames(ts, declaration.name, names);
    return names;
  }
  return [];
}

function exportEdits(ts: typeof TS, sourceFile: TS.SourceFile, statement: TS.Statement, aliases: string[], exports: Array<[string, string]>): Edit[] {
  const source = sourceFile.text;
  if (ts.isExportDeclaration(statement)) {
    if (statement.moduleSpecifier) return [];
    if (!statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        if (element.isTypeOnly) continue;
        const local = (element.propertyName ?? element.name).text;
        exports.push([element.name.text, local]);
        if (element.propertyName && element.name.text !== "default" && ts.isIdentifier(element.name)) {
          aliases.push(`var ${element.name.text} = ${local};`);
        }
      }
    }
    return [blank(source, statement.getStart(sourceFile), statement.end)];
  }
  if (ts.isExportAssignment(statement)) {
    const start = statement.getStart(sourceFile);
    const end = statement.expression.getStart(sourceFile);
    if (statement.isExportEquals) return [replace(start, end, `${EXPORT_EQUALS} `)];
    exports.push(["default", DEFAULT_LOCAL]);
    return [replace(start, end, `${DEFAULT_BINDING} `)];
  }
  const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
  const exportKeyword = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  if (!exportKeyword) return [];
  const defaultKeyword = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
  const start = exportKeyword.getStart(sourceFile);
  if (defaultKeyword && isAnonymousDeclaration(ts, statement)) {
    exports.push(["default", DEFAULT_LOCAL]);
    return [replace(start, defaultKeyword.end, DEFAULT_BINDING)];
  }
  const names = declaredNames(ts, statement, modifiers);
  if (defaultKeyword) {
    if (names[0] !== undefined) exports.push(["default", names[0]]);
  } else {
    for (const name of names) exports.push([name, name]);
  }
  const edits = [blank(source, start, exportKeyword.end)];
  if (defaultKeyword) edits.push(blank(source, defaultKeyword.getStart(sourceFile), defaultKeyword.end));
  return edits;
}

export function stripExports(ts: typeof TS, source: string, fileName: string): StrippedSource {
  const kind = fileName.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind);
  const aliases: string[] = [];
  const exports: Array<[string, string]> = [];
  const edits = sourceFile.statements.flatMap((statement) => exportEdits(ts, sourceFile, statement, aliases, exports));
  let code = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) code = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
  const unique = [...new Map(exports.map((entry) => [entry[0], entry] as const)).values()];
  return { code, aliases: aliases.length > 0 ? `\n${aliases.join("\n")}\n` : "", exports: unique };
}

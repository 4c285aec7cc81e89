import type * as TS from "typescript";

/**
 * Makes an ES module's exports plain global declarations, so the tests (evaluated after the
 * artifact in the same global scope, as 001's TestGuard does) reach them by name:
 *   export function add() {}        -> function add() {}
 *   export default class X {}       -> class X {}
 *   export const y = 1              -> const y = 1
 *   export default function () {}   -> var _default = function () {}
 *   export default 42               -> var _default = 42
 *   export { a as b }               -> (removed) + `var b = a;` appended
 * The edits are made in the source text, keyword by keyword, replacing with the same number of
 * characters where possible: positions in the result match the original, so the transpiler's
 * source map (and every line number in a message) still points into the code as written.
 * Re-exports from other modules (`export * from "x"`) are left alone: the transpiler keeps
 * them and prepare-source.ts reports them as module use.
 */
export interface StrippedSource {
  readonly code: string;
  /** Declarations for renamed exports, to append after the transpiled code. */
  readonly aliases: string;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const DEFAULT_BINDING = "var _default =";

function blank(source: string, start: number, end: number): Edit {
  return { start, end, text: source.slice(start, end).replace(/[^\n\r]/g, " ") };
}

function replace(start: number, end: number, text: string): Edit {
  return { start, end, text: text.length < end - start ? text.padEnd(end - start) : text };
}

function isAnonymousDeclaration(ts: typeof TS, statement: TS.Statement): boolean {
  return (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name === undefined;
}

function exportEdits(ts: typeof TS, sourceFile: TS.SourceFile, statement: TS.Statement, aliases: string[]): Edit[] {
  const source = sourceFile.text;
  if (ts.isExportDeclaration(statement)) {
    if (statement.moduleSpecifier) return [];
    if (!statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        if (!element.isTypeOnly && element.propertyName && element.name.text !== "default") {
          aliases.push(`var ${element.name.text} = ${element.propertyName.text};`);
        }
      }
    }
    return [blank(source, statement.getStart(sourceFile), statement.end)];
  }
  if (ts.isExportAssignment(statement)) {
    // `export default <expression>` and TypeScript's `export = <expression>`.
    return [replace(statement.getStart(sourceFile), statement.expression.getStart(sourceFile), `${DEFAULT_BINDING} `)];
  }
  const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
  const exportKeyword = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  if (!exportKeyword) return [];
  const defaultKeyword = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
  const start = exportKeyword.getStart(sourceFile);
  if (defaultKeyword && isAnonymousDeclaration(ts, statement)) return [replace(start, defaultKeyword.end, DEFAULT_BINDING)];
  const edits = [blank(source, start, exportKeyword.end)];
  if (defaultKeyword) edits.push(blank(source, defaultKeyword.getStart(sourceFile), defaultKeyword.end));
  return edits;
}

export function stripExports(ts: typeof TS, source: string, fileName: string): StrippedSource {
  const kind = fileName.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind);
  const aliases: string[] = [];
  const edits = sourceFile.statements.flatMap((statement) => exportEdits(ts, sourceFile, statement, aliases));
  let code = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) code = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
  return { code, aliases: aliases.length > 0 ? `\n${aliases.join("\n")}\n` : "" };
}

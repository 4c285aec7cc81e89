import type * as TS from "typescript";
import type { SandboxLanguage } from "../types";
import { createPositionMap, type PositionMap } from "./position-map";
import { stripExports } from "./strip-exports";

export type SourceRole = "artifact" | "tests";

export type PreparedSource =
  | { readonly ok: true; readonly code: string; readonly fileName: string; readonly positions: PositionMap }
  | { readonly ok: false; readonly message: string };

interface ModuleUse {
  readonly specifier: string;
  readonly line: number;
}

/** ES2022 runs natively in QuickJS; ES module output keeps imports visible to recordModuleUses. */
function compilerOptions(ts: typeof TS): TS.CompilerOptions {
  return { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: true, removeComments: false };
}

let typescript: Promise<typeof TS> | undefined;

/** Loaded on first use: the compiler is large, and the Python sandbox never needs it. */
function loadTypeScript(): Promise<typeof TS> {
  typescript ??= import("typescript").then((module) => ((module as { default?: typeof TS }).default ?? module) as typeof TS);
  return typescript;
}

/**
 * Collects the imports the transpiler kept (it has already dropped type-only and unused ones),
 * and drops the `export {}` it adds to a module whose imports all vanished: the sandbox
 * evaluates global code, where `export` is a syntax error.
 */
function recordModuleUses(ts: typeof TS, uses: ModuleUse[]): TS.TransformerFactory<TS.SourceFile> {
  return () => (sourceFile) => {
    const original = ts.getOriginalNode(sourceFile) as TS.SourceFile;
    const isEmptyExport = (statement: TS.Statement) => ts.isExportDeclaration(statement) && !statement.moduleSpecifier;
    for (const statement of sourceFile.statements) {
      let specifier: TS.Expression | undefined;
      if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) specifier = statement.moduleSpecifier;
      else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) specifier = statement.moduleReference.expression;
      if (!specifier) continue;
      const node = ts.getOriginalNode(statement);
      const line = node.pos >= 0 ? original.getLineAndCharacterOfPosition(node.getStart(original)).line + 1 : 1;
      uses.push({ specifier: ts.isStringLiteral(specifier) ? specifier.text : specifier.getText(), line });
    }
    const kept = sourceFile.statements.filter((statement) => !isEmptyExport(statement));
    return kept.length === sourceFile.statements.length ? sourceFile : ts.factory.updateSourceFile(sourceFile, kept);
  };
}

function syntaxMessage(ts: typeof TS, diagnostics: readonly TS.Diagnostic[], fileName: string): string {
  const described = diagnostics.slice(0, 3).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
    if (!diagnostic.file || diagnostic.start === undefined) return text;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${text} (at ${fileName}:${line + 1}:${character + 1})`;
  });
  const more = diagnostics.length > 3 ? ` (and ${diagnostics.length - 3} more)` : "";
  return `SyntaxError in ${fileName}: ${described.join("; ")}${more}`;
}

function moduleMessage(uses: readonly ModuleUse[], fileName: string, role: SourceRole): string {
  const listed = uses.map((use) => `${JSON.stringify(use.specifier)} (at ${fileName}:${use.line})`).join(", ");
  const advice =
    role === "tests"
      ? "test, it, describe, expect and assert are globals, and the artifact's exports are visible to the tests by name, so no import is needed"
      : "the code must be self-contained";
  return `modules are not available in the sandbox: ${fileName} imports ${listed}; ${advice}`;
}

/**
 * Turns the artifact or the tests into plain global JavaScript for the sandbox: exports become
 * declarations (strip-exports.ts), TypeScript is transpiled (type annotations, interfaces and
 * type-only imports vanish), and any remaining import is refused up front with a clear message.
 * JavaScript goes through the same transpiler, which also reports its syntax errors.
 */
export async function prepareSource(source: string, role: SourceRole, language: SandboxLanguage): Promise<PreparedSource> {
  const ts = await loadTypeScript();
  const fileName = `${role}.${language === "typescript" ? "ts" : "js"}`;
  const stripped = stripExports(ts, source, fileName);
  const uses: ModuleUse[] = [];
  const output = ts.transpileModule(stripped.code, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: compilerOptions(ts),
    transformers: { after: [recordModuleUses(ts, uses)] },
  });
  const errors = (output.diagnostics ?? []).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) return { ok: false, message: syntaxMessage(ts, errors, fileName) };
  if (uses.length > 0) return { ok: false, message: moduleMessage(uses, fileName, role) };
  const code = output.outputText.replace(/\/\/# sourceMappingURL=\S*\s*$/, "") + stripped.aliases;
  const mappings = output.sourceMapText ? (JSON.parse(output.sourceMapText) as { mappings: string }).mappings : "";
  return { ok: true, code, fileName, positions: createPositionMap(mappings) };
}

import ts from "typescript";
import { failed, passed, type GuardResult } from "../../engine";

const MAX_REPORTED = 20;

/**
 * Syntax diagnostics from the TypeScript compiler's parser, for JavaScript and TypeScript alike:
 * one line per diagnostic with its line and column. Type errors are not syntax errors and pass.
 */
export function checkJavaScriptSyntax(source: string, language: "javascript" | "typescript"): GuardResult {
  const fileName = language === "typescript" ? "artifact.ts" : "artifact.js";
  const { diagnostics = [] } = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { allowJs: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.Preserve },
  });
  const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length === 0) return passed();
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, false);
  const lines = errors.slice(0, MAX_REPORTED).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
    if (diagnostic.start === undefined) return `- ${message}`;
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(diagnostic.start);
    return `- line ${line + 1}, column ${character + 1}: ${message}`;
  });
  const more = errors.length > MAX_REPORTED ? `\n(and ${errors.length - MAX_REPORTED} more)` : "";
  return failed(`${errors.length} syntax error${errors.length === 1 ? "" : "s"} in ${language === "typescript" ? "TypeScript" : "JavaScript"}:\n${lines.join("\n")}${more}`);
}

import ts from "typescript";

export type ScriptLanguage = "javascript" | "typescript";

export interface ParsedSource {
  sourceFile: ts.SourceFile;
  /** Used only to resolve names to their declarations: is `process` the global or a local? */
  checker: ts.TypeChecker;
  /** The first syntax error, when the code does not parse cleanly. */
  syntaxError?: { line: number; column: number; message: string };
}

const FILE_NAMES: Record<ScriptLanguage, string> = { javascript: "artifact.js", typescript: "artifact.ts" };

/**
 * Parses with the TypeScript compiler and builds a checker over that one file. Without the
 * standard library (noLib) a global such as `process` resolves to nothing, while a local
 * declaration of the same name resolves to that declaration, which is how shadowing is told apart.
 */
export function parseSource(source: string, language: ScriptLanguage): ParsedSource {
  const fileName = FILE_NAMES[language];
  const scriptKind = language === "typescript" ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind);
  const host: ts.CompilerHost = {
    getSourceFile: (name) => (name === fileName ? sourceFile : undefined),
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => {},
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => name === fileName,
    readFile: () => undefined,
  };
  const program = ts.createProgram({
    rootNames: [fileName],
    options: { noLib: true, noResolve: true, allowJs: true, types: [], target: ts.ScriptTarget.Latest },
    host,
  });
  const [first] = program.getSyntacticDiagnostics(sourceFile).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  const parsed: ParsedSource = { sourceFile, checker: program.getTypeChecker() };
  if (!first) return parsed;
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(first.start ?? 0);
  return { ...parsed, syntaxError: { line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(first.messageText, " ") } };
}

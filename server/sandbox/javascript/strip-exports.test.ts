import ts from "typescript";
import { describe, expect, it } from "vitest";
import { stripExports } from "./strip-exports";

const strip = (source: string, fileName = "artifact.ts") => stripExports(ts, source, fileName);

describe("stripExports", () => {
  it("drops export keywords in place, keeping every position", () => {
    const source = "export function add(a: number) { return a; }\nexport const x = 1;\nexport default class Foo {}\nexport interface I { a: 1 }";
    const { code, aliases } = strip(source);
    expect(code).toBe("       function add(a: number) { return a; }\n       const x = 1;\n               class Foo {}\n       interface I { a: 1 }");
    expect(code.length).toBe(source.length);
    expect(aliases).toBe("");
  });

  it("binds anonymous default exports and default expressions to _default", () => {
    expect(strip("export default function () { return 1; }").code).toBe("var _default = function () { return 1; }");
    expect(strip("export default class {}").code).toBe("var _default = class {}");
    expect(strip("export default 40 + 2;").code).toBe("var _default = 40 + 2;");
  });

  it("turns renamed export lists into aliases and removes the list", () => {
    const { code, aliases } = strip("const a = 1;\nexport { a, a as b, a as default };\n", "artifact.js");
    expect(code).toBe("const a = 1;\n" + " ".repeat(35) + "\n");
    expect(aliases).toBe("\nvar b = a;\n");
  });

  it("leaves re-exports from other modules for the module check", () => {
    expect(strip("export * from 'x';").code).toBe("export * from 'x';");
  });
});

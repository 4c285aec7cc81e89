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

  it("lists every exported value binding with its local name, and no types", () => {
    const source = [
      "export function add() {}",
      "export function over(a: string): void;",
      "export function over(a: any) {}",
      "export const { a, b: [c] } = { a: 1, b: [2] }, d = 3;",
      "export default class Foo {}",
      "export interface I {}",
      "export type T = 1;",
      "export declare const ambient: number;",
      "export enum Color { Red }",
      "const hidden = 1;",
      "export { hidden as shown, type I as J };",
    ].join("\n");
    expect(strip(source).exports).toEqual([
      ["add", "add"], ["over", "over"], ["a", "a"], ["c", "c"], ["d", "d"], ["default", "Foo"], ["Color", "Color"], ["shown", "hidden"],
    ]);
    expect(strip("export default 42;").exports).toEqual([["default", "_default"]]);
  });

  it("turns TypeScript's export = into module.exports =", () => {
    expect(strip("const x = 1;\nexport = x;").code).toBe("const x = 1;\nmodule.exports = x;");
  });

  it("leaves re-exports from other modules to the transpiler", () => {
    expect(strip("export * from 'x';").code).toBe("export * from 'x';");
  });
});

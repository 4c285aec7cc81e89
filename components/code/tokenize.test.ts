import { describe, expect, it } from "vitest";
import { tokenizeLines } from "./tokenize";

const kinds = (line: { kind: string; text: string }[]) => line.filter((token) => token.kind !== "plain").map((token) => `${token.kind}:${token.text}`);

describe("tokenizeLines", () => {
  it("marks Python keywords, strings, numbers and comments, keeping every character", () => {
    const source = "import os\nos.system('du -sh ' + path)  # shells out\nx = 42";
    const lines = tokenizeLines(source, "python");
    expect(lines.map((line) => line.map((token) => token.text).join("")).join("\n")).toBe(source);
    expect(kinds(lines[0]!)).toEqual(["keyword:import"]);
    expect(kinds(lines[1]!)).toEqual(["string:'du -sh '", "comment:# shells out"]);
    expect(kinds(lines[2]!)).toEqual(["number:42"]);
  });

  it("carries a triple-quoted Python string across lines", () => {
    const lines = tokenizeLines('"""Doc\nstill doc\nend""" if x', "python");
    expect(kinds(lines[1]!)).toEqual(["string:still doc"]);
    expect(kinds(lines[2]!)).toEqual(['string:end"""', "keyword:if"]);
  });

  it("handles JavaScript block comments, escapes and template strings", () => {
    const lines = tokenizeLines("const a = \"x\\\"y\"; /* start\nend */ return `t`", "javascript");
    expect(kinds(lines[0]!)).toEqual(["keyword:const", 'string:"x\\"y"', "comment:/* start"]);
    expect(kinds(lines[1]!)).toEqual(["comment:end */", "keyword:return", "string:`t`"]);
  });

  it("does not call digits inside a name a number, nor Python keywords JavaScript ones", () => {
    expect(kinds(tokenizeLines("step2 = None", "python")[0]!)).toEqual(["keyword:None"]);
    expect(kinds(tokenizeLines("def f(): pass", "typescript")[0]!)).toEqual([]);
  });
});

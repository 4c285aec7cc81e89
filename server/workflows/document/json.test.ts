import { describe, expect, it } from "vitest";
import { loadWorkflowDocument } from "./load";
import { problemsOf, valueOf } from "./test-helpers";

describe("loadWorkflowDocument: JSON", () => {
  it("loads JSON by file name or by its first character", () => {
    const text = '{"name": "a", "steps": [{"n": 1.5, "ok": true, "x": null}], "s": "no"}';
    const expected = { name: "a", steps: [{ n: 1.5, ok: true, x: null }], s: "no" };
    expect(valueOf(text)).toEqual(expected);
    expect(valueOf(`  \n${text}`, { fileName: "w.yaml" })).toEqual(expected);
    expect(valueOf("[1, 2]")).toEqual([1, 2]);
  });

  it("reports duplicate keys that JSON.parse would silently drop, with both positions", () => {
    const text = '{\n  "workflow": {\n    "name": "a",\n    "name": "b"\n  }\n}\n';
    expect(problemsOf(text)).toEqual([
      { path: "workflow", line: 4, column: 5, message: 'duplicate key "name" (line 4, column 5; first at line 3, column 5)' },
    ]);
  });

  it.each([
    ['{"a": 1,}', 1, 9, 'unexpected character "}"; expected a property name in double quotes'],
    ["{'a': 1}", 1, 2, `unexpected character "'"; expected a property name in double quotes or "}"`],
    ['{"a": yes}', 1, 7, 'unexpected word "yes"; expected a value'],
    ['{"a": 1} // note', 1, 10, 'unexpected character "/" after the JSON value'],
    ['{\n  "a": [1 2]\n}', 2, 11, 'unexpected character "2"; expected "," or "]"'],
    ['{"a": "x\ny"}', 1, 9, "strings may not contain raw line breaks or control characters; use \\n or \\t"],
    ['{"a": "\\x"}', 1, 8, 'invalid escape sequence "\\x" in string'],
    ['{"a": 1', 1, 8, 'unexpected end of document; expected "," or the end of the list or object'],
    ['{"a": 01}', 1, 8, 'unexpected character "1"; expected "," or "}"'],
  ])("rejects %j with its position", (text, line, column, message) => {
    expect(problemsOf(text)).toEqual([{ path: "document", line, column, message: `invalid JSON: ${message}` }]);
  });

  it("applies the same rules as YAML: reserved keys and depth", () => {
    expect(problemsOf('{"a": {"__proto__": {"x": 1}}}')).toEqual([
      { path: "a", line: 1, column: 8, message: 'key "__proto__" is not allowed' },
    ]);
    expect(problemsOf(`{"a": ${"[".repeat(70)}${"]".repeat(70)}}`)[0]?.message).toBe("nesting is deeper than 64 levels");
  });

  it("keeps escapes and unicode exactly as JSON.parse does", () => {
    const text = JSON.stringify({ s: 'quote " slash / tab \t nl \n \u00e9 \ud83d\ude00 \\', n: -1.5e3, z: 0 });
    expect(valueOf(text)).toEqual(JSON.parse(text));
  });

  it("locates fields in JSON input", () => {
    const result = loadWorkflowDocument('{\n  "steps": [\n    {"name": "a"},\n    {"name": "b"}\n  ]\n}');
    if (!result.ok) expect.fail("should load");
    expect(result.locate(["steps", 1, "name"])).toEqual({ line: 4, column: 14 });
  });

  it("can be told the format explicitly", () => {
    expect(problemsOf("a: 1", { format: "json" })[0]?.message).toMatch(/^invalid JSON/);
    expect(valueOf('{"a": 1}', { format: "yaml" })).toEqual({ a: 1 });
  });
});

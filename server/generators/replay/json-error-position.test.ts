import { describe, expect, it } from "vitest";
import { jsonErrorPosition } from "./json-error-position";

describe("jsonErrorPosition", () => {
  it.each([
    ['{"a": [1, 2,]}', 1, 13],
    ['{\n  "a": 1,\n}', 3, 1],
    ['{"a" 1}', 1, 6],
    ['{"a": tru}', 1, 7],
    ['[1, 2', 1, 6],
    ["", 1, 1],
    ['{"a": "x\ny"}', 1, 9],
    ['{"a": "\\q"}', 1, 9],
    ["[1] 2", 1, 5],
  ])("%j fails at line %i, column %i", (text, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorPosition(text)).toEqual({ line, column });
  });

  it("reads valid JSON to its end", () => {
    const text = '{"a": [true, false, null, -1.5e3, "\\u00e9\\n"], "b": {}}';
    expect(jsonErrorPosition(text)).toEqual({ line: 1, column: text.length + 1 });
  });
});

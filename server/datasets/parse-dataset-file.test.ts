import { describe, expect, it } from "vitest";
import { DATASET_LIMITS } from "./limits";
import { parseDatasetFile, type ParseDatasetResult } from "./parse-dataset-file";

function cases(result: ParseDatasetResult) {
  if (!result.ok) throw new Error(`expected cases, got errors: ${JSON.stringify(result.errors)}`);
  return result.cases;
}
function errors(result: ParseDatasetResult) {
  if (result.ok) throw new Error(`expected errors, got ${result.cases.length} cases`);
  return result.errors;
}
const jsonl = (...records: unknown[]) => records.map((record) => (typeof record === "string" ? record : JSON.stringify(record))).join("\n");

describe("parseDatasetFile: JSON Lines", () => {
  it("reads cases with keys, variables and checks, skipping blank lines and a BOM", () => {
    const text = `\uFEFF${jsonl(
      { key: "add", specification: "  Write add(a, b)  ", variables: { language: "python", retries: 2, strict: true } },
      "",
      { specification: "Write sub", checks: { tests: { language: "python", code: "assert sub(2, 1) == 1\n" }, rubric: "Uses no imports" } },
    )}\r\n`;
    expect(cases(parseDatasetFile("cases.JSONL", text))).toEqual([
      { key: "add", specification: "Write add(a, b)", variables: { language: "python", retries: 2, strict: true } },
      { key: "case-2", specification: "Write sub", checks: { tests: { language: "python", code: "assert sub(2, 1) == 1\n" }, rubric: "Uses no imports" } },
    ]);
  });

  it("reports every mistake with its line and field, and keeps checking after a bad line", () => {
    const text = jsonl(
      { specification: "fine" },
      "{not json",
      { specificaton: "typo" },
      { specification: "x", variables: { "1st": "a", ok: null } },
      { specification: "x", checks: { tests: { language: "ruby", code: "" }, score: 3 } },
      "[1, 2]",
    );
    expect(errors(parseDatasetFile("d.jsonl", text))).toEqual([
      { line: 2, field: "record", message: expect.stringMatching(/^is not valid JSON \(.+\)$/) },
      { line: 3, field: "specificaton", message: "is not a case field (expected key, specification, variables or checks)" },
      { line: 3, field: "specification", message: "is required" },
      { line: 4, field: "variables.1st", message: expect.stringContaining("is not a variable name") },
      { line: 4, field: "variables.ok", message: "must be text, a number or true/false, not null" },
      { line: 5, field: "checks.score", message: "is not a check (expected tests or rubric)" },
      { line: 5, field: "checks.tests.language", message: 'must be python or javascript, not "ruby"' },
      { line: 5, field: "checks.tests.code", message: "must not be empty" },
      { line: 6, field: "record", message: "must be an object with a specification, not a list" },
    ]);
  });

  it("makes generated keys unique against written ones and rejects duplicate written keys naming the first line", () => {
    expect(cases(parseDatasetFile("d.jsonl", jsonl({ specification: "a" }, { key: "case-1", specification: "b" }))).map((c) => c.key)).toEqual(["case-1-2", "case-1"]);
    expect(cases(parseDatasetFile("d.jsonl", jsonl({ key: 7, specification: "a" }))).map((c) => c.key)).toEqual(["7"]);
    expect(errors(parseDatasetFile("d.jsonl", jsonl({ key: "a", specification: "x" }, { specification: "y" }, { key: "a", specification: "z" })))).toEqual([
      { line: 3, field: "key", message: '"a" is already the key of the case on line 1; keys must be unique' },
    ]);
    expect(errors(parseDatasetFile("d.jsonl", jsonl({ key: "has space", specification: "x" })))[0]).toMatchObject({ line: 1, field: "key" });
    expect(errors(parseDatasetFile("d.jsonl", jsonl({ key: "k".repeat(DATASET_LIMITS.keyChars + 1), specification: "x" })))[0]?.message).toMatch(/the limit is 128/);
  });
});

describe("parseDatasetFile: CSV", () => {
  it("reads quoted cells with commas, quotes and line breaks, typed variables and checks", () => {
    const text = [
      "key,specification,var.language,var.retries:number,var.strict:boolean,tests_language,tests_code,rubric",
      'a,"Write add, carefully","py",3,true,python,"assert add(1, 2) == 3\r\nassert add(0, 0) == 0",',
      ',"Say ""hi""",,,,,,Polite',
      "",
    ].join("\r\n");
    expect(cases(parseDatasetFile("x.csv", text))).toEqual([
      { key: "a", specification: "Write add, carefully", variables: { language: "py", retries: 3, strict: true }, checks: { tests: { language: "python", code: "assert add(1, 2) == 3\nassert add(0, 0) == 0" } } },
      { key: "case-2", specification: 'Say "hi"', checks: { rubric: "Polite" } },
    ]);
  });

  it("names the column and the line where the cell starts", () => {
    const text = ["specification,var.n:number,tests_code", '"line one', 'line two",x,', "ok,,assert 1", ",1,"].join("\n");
    expect(errors(parseDatasetFile("x.csv", text))).toEqual([
      { line: 3, field: "var.n:number", message: '"x" is not a number' },
      { line: 4, field: "tests_language", message: "is required (python or javascript)" },
      { line: 5, field: "specification", message: "is required" },
    ]);
  });

  it("rejects a bad header: unknown, duplicate, untyped and missing columns", () => {
    expect(errors(parseDatasetFile("x.csv", "spec,var.a:date,var.b,var.b,var.9x\nq,1,2,3,4"))).toEqual([
      { line: 1, field: "spec", message: expect.stringContaining("is not a column") },
      { line: 1, field: "var.a:date", message: 'type "date" is not text, number or boolean' },
      { line: 1, field: "var.b", message: "appears twice in the header" },
      { line: 1, field: "var.9x", message: expect.stringContaining("is not a variable name") },
      { line: 1, field: "specification", message: "the header has no specification column" },
    ]);
  });

  it("stops at syntax it cannot read with certainty, naming the line", () => {
    expect(errors(parseDatasetFile("x.csv", 'specification\nok\n"never closed\nmore'))).toEqual([{ line: 3, field: "record", message: expect.stringContaining("never closed") }]);
    expect(errors(parseDatasetFile("x.csv", 'specification\nsay "hi"'))).toEqual([{ line: 2, field: "record", message: expect.stringContaining('write the quote as ""') }]);
    expect(errors(parseDatasetFile("x.csv", 'specification\n"a"b'))).toEqual([{ line: 2, field: "record", message: expect.stringContaining("after the closing quote") }]);
    expect(errors(parseDatasetFile("x.csv", "specification\na\rb"))).toEqual([{ line: 2, field: "record", message: expect.stringContaining("carriage return") }]);
    expect(errors(parseDatasetFile("x.csv", "specification,key\na"))).toEqual([{ line: 2, field: "record", message: "has 1 cells; the header has 2 columns" }]);
  });

  it("bounds columns and cell length", () => {
    const wide = Array.from({ length: DATASET_LIMITS.csvColumns + 1 }, (_, i) => `var.v${i}`).join(",");
    expect(errors(parseDatasetFile("x.csv", `${wide}\n`))[0]?.message).toMatch(/more than 60 cells/);
    const long = `specification\n"${"a".repeat(DATASET_LIMITS.specificationChars + 10)}"`;
    expect(errors(parseDatasetFile("x.csv", long))[0]?.message).toMatch(/longer than/);
    const longUnquoted = `specification\n${"a".repeat(DATASET_LIMITS.specificationChars + 10)}`;
    expect(errors(parseDatasetFile("x.csv", longUnquoted))[0]?.message).toMatch(/longer than/);
  });
});

describe("parseDatasetFile: YAML", () => {
  it("reads a list or a cases mapping, with block text and typed variables", () => {
    const text = "cases:\n  - key: add\n    specification: |\n      Write add(a, b).\n    variables: {language: python, retries: 2, strict: no}\n  - specification: Write sub\n    checks:\n      rubric: Short\n";
    expect(cases(parseDatasetFile("d.yml", text))).toEqual([
      { key: "add", specification: "Write add(a, b).", variables: { language: "python", retries: 2, strict: "no" } },
      { key: "case-2", specification: "Write sub", checks: { rubric: "Short" } },
    ]);
    expect(cases(parseDatasetFile("d.yaml", "- specification: a\n- specification: b\n")).map((c) => c.key)).toEqual(["case-1", "case-2"]);
  });

  it("reports a field's own line inside a case", () => {
    const text = "- specification: fine\n- key: b\n  specification: ok\n  variables:\n    n: [1]\n- specification: ''\n";
    expect(errors(parseDatasetFile("d.yaml", text))).toEqual([
      { line: 5, field: "variables.n", message: "must be text, a number or true/false, not a list" },
      { line: 6, field: "specification", message: "must not be empty" },
    ]);
  });

  it("refuses what the workflow loader refuses: custom tags, syntax errors, extra top-level fields, alias bombs", () => {
    expect(errors(parseDatasetFile("d.yaml", "- specification: !!js/function 'x'\n"))[0]).toMatchObject({ line: 1, message: expect.stringContaining("is not allowed") });
    expect(errors(parseDatasetFile("d.yaml", "- specification: [unclosed\n"))[0]?.line).toBeGreaterThan(0);
    expect(errors(parseDatasetFile("d.yaml", "name: x\ncases: []\n"))).toEqual([{ line: 1, field: "file", message: "must be a list of cases, or a mapping with only a cases list" }]);
    expect(errors(parseDatasetFile("d.yaml", "cases: nope\n"))).toEqual([{ line: 1, field: "cases", message: "must be a list of cases" }]);
    const laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(", ")}]`);
    expect(errors(parseDatasetFile("d.yaml", laughs.join("\n"))).map((e) => e.message).join(" ")).toMatch(/aliases|nodes/);
    expect(errors(parseDatasetFile("d.yaml", `${"[".repeat(10_000)}`))[0]?.message).toMatch(/nesting is deeper/);
    expect(errors(parseDatasetFile("d.yaml", "- specification: x\n  __proto__: {polluted: true}\n"))[0]?.message).toMatch(/not allowed/);
  });
});

describe("parseDatasetFile: bounds and hostile input", () => {
  it("chooses the format by extension and refuses others", () => {
    expect(errors(parseDatasetFile("cases.json", "[]"))).toEqual([{ line: 0, field: "file", message: expect.stringContaining("must end in .jsonl, .csv, .yaml, .yml") }]);
    expect(errors(parseDatasetFile("x".repeat(10_000), ""))[0]!.message.length).toBeLessThan(200);
  });

  it("refuses empty files, oversized files and too many cases", () => {
    for (const name of ["e.jsonl", "e.csv", "e.yaml"]) expect(errors(parseDatasetFile(name, "\n\n"))).toEqual([{ line: expect.any(Number), field: "file", message: "has no cases" }]);
    expect(errors(parseDatasetFile("e.csv", "specification\n"))).toEqual([{ line: 0, field: "file", message: "has no cases" }]);
    const big = "a".repeat(DATASET_LIMITS.fileBytes + 1);
    expect(errors(parseDatasetFile("e.jsonl", big))).toEqual([{ line: 0, field: "file", message: expect.stringMatching(/bytes; the limit is/) }]);
    // Multi-byte characters count as bytes, not string length.
    expect(errors(parseDatasetFile("e.jsonl", "é".repeat(DATASET_LIMITS.fileBytes / 2 + 1)))[0]?.message).toMatch(/bytes; the limit/);
    const many = Array.from({ length: DATASET_LIMITS.cases + 1 }, () => '{"specification":"x"}').join("\n");
    expect(errors(parseDatasetFile("e.jsonl", many))).toEqual([{ line: DATASET_LIMITS.cases + 1, field: "file", message: `has more than ${DATASET_LIMITS.cases} cases` }]);
    expect(errors(parseDatasetFile("e.csv", `specification\n${"x\n".repeat(DATASET_LIMITS.cases + 1)}`))[0]?.message).toMatch(/more than 5000 cases/);
    expect(errors(parseDatasetFile("e.yaml", `${"- specification: x\n".repeat(DATASET_LIMITS.cases + 1)}`))[0]?.message).toMatch(/more than 5000 cases/);
    expect(cases(parseDatasetFile("e.jsonl", many.slice(0, many.lastIndexOf("\n"))))).toHaveLength(DATASET_LIMITS.cases);
  });

  it("caps the error list and counts the rest", () => {
    const result = errors(parseDatasetFile("e.jsonl", Array(500).fill("nope").join("\n")));
    expect(result).toHaveLength(DATASET_LIMITS.errors + 1);
    expect(result.at(-1)).toEqual({ line: 0, field: "file", message: "450 more error(s) not shown" });
  });

  it("bounds every field and refuses text no database can store", () => {
    const over = (n: number) => "a".repeat(n + 1);
    const problems = errors(
      parseDatasetFile(
        "e.jsonl",
        jsonl(
          { specification: over(DATASET_LIMITS.specificationChars) },
          { specification: "x", checks: { rubric: over(DATASET_LIMITS.rubricChars), tests: { language: "javascript", code: over(DATASET_LIMITS.testCodeChars) } } },
          { specification: "x", variables: Object.fromEntries(Array.from({ length: DATASET_LIMITS.variables + 1 }, (_, i) => [`v${i}`, i])) },
          { specification: "x", variables: { long: over(DATASET_LIMITS.variableTextChars), [`v${"a".repeat(64)}`]: 1 } },
          { specification: "nul \u0000 here" },
          '{"specification": "lone \\ud800 surrogate"}',
          '{"specification": "x", "variables": {"big": 1e400}}',
        ),
      ),
    );
    expect(problems.map(({ line, field }) => `${line} ${field}`)).toEqual([
      "1 specification",
      "2 checks.tests.code",
      "2 checks.rubric",
      "3 variables",
      "4 variables.long",
      `4 variables.v${"a".repeat(64)}`,
      "5 specification",
      "6 specification",
      "7 variables.big",
    ]);
    expect(problems[6]!.message).toBe("must not contain NUL characters");
    expect(problems[7]!.message).toBe("contains invalid Unicode (a lone surrogate)");
  });

  it("keeps prototypes intact whatever the keys", () => {
    const result = errors(parseDatasetFile("e.jsonl", '{"specification":"x","variables":{"__proto__":{"polluted":true},"constructor":"c"}}'));
    expect(result.map((e) => e.field)).toEqual(["variables.__proto__", "variables.constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const ok = cases(parseDatasetFile("e.jsonl", '{"specification":"x","variables":{"toString":"t"}}'));
    expect(Object.getPrototypeOf(ok[0]!.variables)).toBe(Object.prototype);
    expect(ok[0]!.variables).toEqual({ toString: "t" });
  });

  it("never throws on random bytes in any format", () => {
    // A small deterministic generator: the same inputs every run, biased towards syntax characters.
    let seed = 19;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const alphabet = ['"', ",", "\n", "\r", "{", "}", "[", "]", ":", "-", "&", "*", "!", "a", "1", " ", "\\", "'", "\u0000", "é", "specification"];
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: next() % 200 }, () => alphabet[next() % alphabet.length]).join("");
      for (const name of ["f.jsonl", "f.csv", "f.yaml"]) {
        const result = parseDatasetFile(name, text);
        if (!result.ok) for (const error of result.errors) expect(error).toEqual({ line: expect.any(Number), field: expect.any(String), message: expect.any(String) });
      }
    }
  });

  it("reads a deeply nested JSON line as an error, not a crash", () => {
    const result = errors(parseDatasetFile("e.jsonl", `{"specification":"x","variables":${"[".repeat(100_000)}${"]".repeat(100_000)}}`));
    expect(result).toEqual([{ line: 1, field: "variables", message: "must be an object of name: value pairs, not a list" }]);
  });
});

describe("parseDatasetFile: line numbers", () => {
  it("counts lines the same with LF, CRLF, blank lines and no final newline", () => {
    for (const newline of ["\n", "\r\n"]) {
      const text = ["", '{"specification":"a"}', "", "", "oops"].join(newline);
      expect(errors(parseDatasetFile("d.jsonl", text))).toEqual([{ line: 5, field: "record", message: expect.stringContaining("is not valid JSON") }]);
    }
    expect(errors(parseDatasetFile("d.jsonl", `${"\n".repeat(300_000)}oops`))[0]?.line).toBe(300_001);
  });
});

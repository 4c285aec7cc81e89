import { describe, expect, it } from "vitest";
import { formatProblem } from "./format-problem";
import { problemsOf, valueOf } from "./test-helpers";

describe("loadWorkflowDocument: YAML problems", () => {
  it("reports a syntax error with line and column and one short line", () => {
    const problems = problemsOf("name: a\nsteps: [1, 2\nnext: 3\n");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "document", line: 3, column: 1 });
    expect(problems[0]?.message).not.toContain("\n");
    expect(problems[0]?.message).toMatch(/Flow sequence/);
  });

  it("reports a bad escape and tab indentation at their places", () => {
    expect(problemsOf('a: "\\q"\n')[0]).toMatchObject({ path: "document", line: 1, column: 5 });
    expect(problemsOf("a:\n\tb: 1\n")[0]).toMatchObject({ line: 2, column: 1 });
  });

  it("rejects more than one document in a file", () => {
    expect(problemsOf("a: 1\n---\nb: 2\n")[0]).toMatchObject({ path: "document", line: 2, column: 1 });
  });

  it("reports duplicate keys with both positions", () => {
    const problems = problemsOf("workflow:\n  name: a\n  steps: []\n  name: b\n");
    expect(problems).toEqual([
      {
        path: "workflow",
        line: 4,
        column: 3,
        message: 'duplicate key "name" (line 4, column 3; first at line 2, column 3)',
      },
    ]);
  });

  it("treats 1 and \"1\" as the same key, since both become the JS key \"1\"", () => {
    expect(problemsOf('1: a\n"1": b\n')[0]?.message).toBe('duplicate key "1" (line 2, column 1; first at line 1, column 1)');
  });

  it.each([
    ["!!js/function", "a: !!js/function 'function () {}'\n", 4],
    ["!!python/object/apply:os.system", "a: !!python/object/apply:os.system [ls]\n", 4],
    ["!custom", "a: !custom 1\n", 4],
    ["!!binary", "a: !!binary aGVsbG8=\n", 4],
    ["!!set", "a: !!set {x}\n", 4],
    ["!!omap", "a: !!omap [x: 1]\n", 4],
    ["!!timestamp", "a: !!timestamp 2001-12-14\n", 4],
  ])("rejects the tag %s with its place", (tag, text, column) => {
    expect(problemsOf(text)).toEqual([{ path: "a", line: 1, column, message: `YAML tag "${tag}" is not allowed` }]);
  });

  it("names the field path of a rejected tag deep in the document", () => {
    const problems = problemsOf("workflow:\n  steps:\n    - name: a\n      run: !!js/function x\n");
    expect(formatProblem(problems[0]!)).toBe('workflow.steps[0].run (line 4, column 12): YAML tag "!!js/function" is not allowed');
  });

  it("rejects tags on keys and tags that would change the meaning of core types", () => {
    expect(problemsOf("!custom k: 1\n")[0]?.message).toBe('YAML tag "!custom" is not allowed');
    expect(problemsOf("%TAG !! tag:example.com:\n---\na: !!str x\n")[0]?.message).toBe('YAML tag "tag:example.com:str" is not allowed');
    expect(problemsOf("a: !!int abc\n")[0]).toMatchObject({ path: "a", message: 'value "abc" is not a valid !!int' });
  });

  it("allows the core scalar and collection tags", () => {
    expect(valueOf("a: !!str 5\nb: !!int '7'\nc: !!float 1.5\nd: !!bool true\ne: !!null ''\nf: !!seq [1]\ng: !!map {x: 1}\n")).toEqual({
      a: "5", b: 7, c: 1.5, d: true, e: null, f: [1], g: { x: 1 },
    });
  });

  it("uses the YAML 1.2 core schema: no YAML 1.1 booleans, dates, sexagesimals or merges", () => {
    const text = "a: no\nb: on\nc: yes\nd: 2001-12-14\ne: 1:20\nf: 0o17\n<<: {x: 1}\n";
    expect(valueOf(text)).toEqual({ a: "no", b: "on", c: "yes", d: "2001-12-14", e: "1:20", f: 15, "<<": { x: 1 } });
    expect(valueOf("%YAML 1.1\n---\na: no\nb: 2001-12-14\n")).toEqual({ a: "no", b: "2001-12-14" });
  });

  it.each(["__proto__", "constructor", "prototype"])("rejects the key %s anywhere", (key) => {
    expect(problemsOf(`workflow:\n  steps:\n    - ${key}: {x: 1}\n`)).toEqual([
      { path: "workflow.steps[0]", line: 3, column: 7, message: `key "${key}" is not allowed` },
    ]);
  });

  it("rejects complex keys but turns number, boolean and null keys into the text written", () => {
    expect(problemsOf("? [a, b]\n: 1\n")).toEqual([
      { path: "document", line: 1, column: 3, message: "mapping keys must be plain scalars, not sequences, mappings or aliases" },
    ]);
    expect(problemsOf("a: &k x\n*k : 1\n")[0]?.message).toMatch(/mapping keys must be plain scalars/);
    expect(problemsOf(": x\n")[0]?.message).toBe("mapping key is empty");
    expect(valueOf("1.0: a\n2: b\ntrue: c\n~: d\n0x10: e\n")).toEqual({ "1.0": "a", "2": "b", true: "c", "~": "d", "0x10": "e" });
  });

  it("reports aliases without anchors and aliases that contain themselves", () => {
    expect(problemsOf("a: *x\n")).toEqual([{ path: "a", line: 1, column: 4, message: 'alias "*x" has no anchor "&x" before it' }]);
    expect(problemsOf("a: &a [*a]\n")[0]).toMatchObject({ path: "a[0]", message: 'alias "*a" refers to a collection that contains it' });
  });

  it("expands aliases into independent copies", () => {
    const value = valueOf("base: &g {kind: tests}\nsteps:\n  - guards: [*g]\n  - guards: [*g]\n") as {
      steps: { guards: object[] }[];
    };
    expect(value.steps[0]?.guards[0]).toEqual({ kind: "tests" });
    expect(value.steps[0]?.guards[0]).not.toBe(value.steps[1]?.guards[0]);
  });

  it("caps the number of problems listed", () => {
    const text = Array.from({ length: 80 }, (_, i) => `k${i}: !x 1`).join("\n");
    const problems = problemsOf(text);
    expect(problems).toHaveLength(51);
    expect(problems[50]).toEqual({ path: "document", message: "30 more problem(s) not shown" });
  });

  it("loads an empty document as null, leaving the shape to the validator", () => {
    expect(valueOf("")).toBeNull();
    expect(valueOf("# only a comment\n")).toBeNull();
  });
});

describe("formatProblem", () => {
  it("writes one line with or without a place", () => {
    expect(formatProblem({ path: "document", message: "is empty" })).toBe("document: is empty");
    expect(formatProblem({ path: "a.b", line: 3, column: 7, message: "bad" })).toBe("a.b (line 3, column 7): bad");
    expect(formatProblem({ path: "a", line: 3, message: "bad" })).toBe("a (line 3): bad");
  });
});

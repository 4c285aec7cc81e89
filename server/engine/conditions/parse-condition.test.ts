import { describe, expect, it } from "vitest";
import type { ConditionNode } from "./condition-node";
import { MAX_CONDITION_DEPTH, MAX_CONDITION_LENGTH, parseCondition } from "./parse-condition";

function tree(source: string): ConditionNode {
  const result = parseCondition(source);
  if (!result.ok) throw new Error(`expected ${source} to parse: ${result.message}`);
  return result.expression;
}

const name = (n: string): ConditionNode => ({ kind: "name", name: n });
const lit = (value: boolean | number | string): ConditionNode => ({ kind: "literal", value });

describe("parseCondition: valid input", () => {
  it.each<[string, ConditionNode]>([
    ["g_test", name("g_test")],
    ["true", lit(true)],
    ["false", lit(false)],
    ["not g_impl", { kind: "not", operand: name("g_impl") }],
    ["!g_impl", { kind: "not", operand: name("g_impl") }],
    ["attempts >= 3 and not done", { kind: "and", operands: [{ kind: "compare", operator: ">=", left: name("attempts"), right: lit(3) }, { kind: "not", operand: name("done") }] }],
    ["language != 'python'", { kind: "compare", operator: "!=", left: name("language"), right: lit("python") }],
    ["x > -2.5", { kind: "compare", operator: ">", left: name("x"), right: lit(-2.5) }],
    ["x == - 0", { kind: "compare", operator: "==", left: name("x"), right: lit(0) }],
    [String.raw`s == "a\"b\\c\'d"`, { kind: "compare", operator: "==", left: name("s"), right: lit(`a"b\\c'd`) }],
    [String.raw`s == 'it\'s'`, { kind: "compare", operator: "==", left: name("s"), right: lit("it's") }],
    ["  a\n&&\tb  ", { kind: "and", operands: [name("a"), name("b")] }],
    ["((a))", name("a")],
    ["_x1 || Y_2", { kind: "or", operands: [name("_x1"), name("Y_2")] }],
    ["this or self", { kind: "or", operands: [name("this"), name("self")] }],
    ["andy or notable or truely", { kind: "or", operands: [name("andy"), name("notable"), name("truely")] }],
  ])("%s", (source, expected) => {
    expect(tree(source)).toEqual(expected);
  });

  it("lists the distinct names read, in order of first appearance", () => {
    const result = parseCondition('status == "ready" or (score > 0.5 and g_review) or status != x and g_review');
    expect(result.ok && result.names).toEqual(["status", "score", "g_review", "x"]);
    expect(parseCondition("true and 1 == 1")).toMatchObject({ ok: true, names: [] });
  });
});

describe("parseCondition: precedence (not > comparison > and > or)", () => {
  it.each([
    ["a or b and c", "a or (b and c)"],
    ["a and b or c", "(a and b) or c"],
    ["not a and b", "(not a) and b"],
    ["not a or b", "(not a) or b"],
    ["a == 1 and b", "(a == 1) and b"],
    ["a or b == 1", "a or (b == 1)"],
    ["not not a", "not (not a)"],
    ["a and b and c", "(a and b) and c"],
    ["a and b and c", "a and (b and c)"],
    ["a || b && !c", "a or (b and (not c))"],
  ])("%s reads as %s", (source, explicit) => {
    expect(tree(source)).toEqual(tree(explicit));
  });

  it("differs from the explicitly misgrouped reading", () => {
    expect(tree("a or b and c")).not.toEqual(tree("(a or b) and c"));
    expect(tree("not a and b")).not.toEqual(tree("not (a and b)"));
  });
});

describe("parseCondition: errors name the problem and the column", () => {
  it.each([
    ["", "empty condition", 1],
    ["   \n\t", "empty condition", 1],
    ["(a and b))", 'unexpected ")" at column 10', 10],
    ["a and b)", 'unexpected ")" at column 8', 8],
    [")", 'unexpected ")" at column 1', 1],
    ["a b", 'unexpected "b" at column 3', 3],
    ["and a", 'unexpected "and" at column 1', 1],
    ['x == "ab', "unterminated string starting at column 6", 6],
    ["s == 'ab\\'", "unterminated string starting at column 6", 6],
    ["s == 'a\\", "unterminated string starting at column 6", 6],
    ["s == 'a\\nb'", 'unknown escape "\\n" in string (only \\\\, \\" and \\\') at column 8', 8],
    ["g_test and ", 'expected an expression after "and" at column 12', 12],
    ["a and or b", 'expected an expression after "and" at column 7', 7],
    ["a == ", 'expected an expression after "==" at column 6', 6],
    ["not", 'expected an expression after "not" at column 4', 4],
    ["a && )", 'expected an expression after "&&" at column 6', 6],
    ["()", 'expected an expression after "(" at column 2', 2],
    ["(a and b", 'unclosed "(" at column 1', 1],
    ["(a b)", 'unexpected "b" at column 4', 4],
    ["lang = 'x'", '"=" is not an operator (use "==") at column 6', 6],
    ["a & b", '"&" is not an operator (use "&&" or "and") at column 3', 3],
    ["a | b", '"|" is not an operator (use "||" or "or") at column 3', 3],
    ["1 < 2 < 3", "comparisons cannot be chained at column 7", 7],
    ["a == b != c", "comparisons cannot be chained at column 8", 8],
    ["a $b", 'unknown character "$" at column 3', 3],
    ["a == 😀", 'unknown character "😀" at column 6', 6],
    ["-x > 1", '"-" must be followed by a number at column 1', 1],
    ["x > --1", '"-" must be followed by a number at column 5', 5],
    ["x > 1.", 'expected a digit after "." at column 6', 6],
    ["x > 1e5", "malformed number at column 5", 5],
    ["x > 1.2.3", "malformed number at column 5", 5],
    ["x > 2abc", "malformed number at column 5", 5],
    [`x > ${"9".repeat(400)}`, "number is too large at column 5", 5],
    ["not a == b", '"not" before a comparison is ambiguous: add parentheses at column 1', 1],
    ["!a < 3", '"!" before a comparison is ambiguous: add parentheses at column 1', 1],
    ["a == not b", '"not" after a comparison needs parentheses at column 6', 6],
    ["x == null", '"null" is not supported (conditions have no null) at column 6', 6],
    ["x == True", '"True" is not supported (use "true") at column 6', 6],
    ["x == None", '"None" is not supported (conditions have no null) at column 6', 6],
  ])("%j → %s", (source, message, column) => {
    expect(parseCondition(source)).toEqual({ ok: false, message, column });
  });
});

describe("parseCondition: hostile input is a parse error, never code", () => {
  it.each([
    "__proto__.polluted",
    "__proto__",
    "constructor",
    "a or constructor",
    "prototype",
    "toString",
    "hasOwnProperty == 1",
    'constructor.constructor("x")()',
    "process.exit()",
    "a[0]",
    "a['b']",
    "f(x)",
    "a ()",
    "`x`",
    "`${process}`",
    "${x}",
    "a; b",
    "a = 1",
    "a === b",
    "a + 1",
    "1 * 2",
    "a ? b : c",
    "a => b",
    "new Date()",
    "import('fs')",
    "require('fs')",
    "a, b",
    "{}",
    "a\u00a0and b",
    "\u0000",
    "x in y",
  ])("%j", (source) => {
    const result = parseCondition(source);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ message: expect.stringMatching(/ at column \d+$/) });
  });

  it("names Object.prototype members in the message", () => {
    expect(parseCondition("__proto__.polluted")).toEqual({ ok: false, message: '"__proto__" cannot be used as a name at column 1', column: 1 });
    expect(parseCondition("a and constructor")).toEqual({ ok: false, message: '"constructor" cannot be used as a name at column 7', column: 7 });
  });
});

describe("parseCondition: limits", () => {
  it(`accepts ${MAX_CONDITION_LENGTH} characters and rejects one more`, () => {
    const atLimit = `a${" or a".repeat((MAX_CONDITION_LENGTH - 1) / 5)}`.padEnd(MAX_CONDITION_LENGTH, " ");
    expect(atLimit).toHaveLength(MAX_CONDITION_LENGTH);
    expect(parseCondition(atLimit).ok).toBe(true);
    expect(parseCondition(`${atLimit} `)).toEqual({
      ok: false,
      message: `condition is longer than ${MAX_CONDITION_LENGTH} characters at column ${MAX_CONDITION_LENGTH + 1}`,
      column: MAX_CONDITION_LENGTH + 1,
    });
  });

  it(`accepts ${MAX_CONDITION_DEPTH} levels of nesting and rejects one more`, () => {
    const parens = (n: number) => `${"(".repeat(n)}a${")".repeat(n)}`;
    expect(parseCondition(parens(MAX_CONDITION_DEPTH)).ok).toBe(true);
    expect(parseCondition(parens(MAX_CONDITION_DEPTH + 1))).toEqual({
      ok: false,
      message: `condition is nested more than ${MAX_CONDITION_DEPTH} levels deep at column ${MAX_CONDITION_DEPTH + 1}`,
      column: MAX_CONDITION_DEPTH + 1,
    });
    expect(parseCondition(`${"not ".repeat(MAX_CONDITION_DEPTH)}a`).ok).toBe(true);
    expect(parseCondition(`${"! ".repeat(MAX_CONDITION_DEPTH + 1)}a`)).toMatchObject({ ok: false, column: 2 * MAX_CONDITION_DEPTH + 1 });
    expect(parseCondition(`${"(not ".repeat(40)}a${")".repeat(40)}`)).toMatchObject({ ok: false });
  });

  it("keeps long and/or chains flat instead of deep", () => {
    const result = tree(Array.from({ length: 600 }, () => "v").join("&&"));
    expect(result).toMatchObject({ kind: "and" });
    expect(result.kind === "and" && result.operands).toHaveLength(600);
  });
});

describe("parseCondition: dotted names", () => {
  it("reads steps.NAME.output as one name (once a hostile input, now a step output)", () => {
    const parsed = parseCondition('steps.check.output == "yes"');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.names).toEqual(["steps.check.output"]);
  });
});

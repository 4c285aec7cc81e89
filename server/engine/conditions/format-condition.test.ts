import { describe, expect, it } from "vitest";
import type { ConditionNode } from "./condition-node";
import { formatCondition } from "./format-condition";
import { parseCondition } from "./parse-condition";

function tree(source: string): ConditionNode {
  const result = parseCondition(source);
  if (!result.ok) throw new Error(`expected ${source} to parse: ${result.message}`);
  return result.expression;
}

describe("formatCondition", () => {
  it.each([
    ["g_test", "g_test"],
    ["  !g_impl ", "not g_impl"],
    ["attempts>=3&&!done", "attempts >= 3 and not done"],
    ["status == 'ready' || (score > 0.5 && g_review)", 'status == "ready" or score > 0.5 and g_review'],
    ["(a or b) and c", "(a or b) and c"],
    ["(a and b) and (c and d)", "a and b and c and d"],
    ["a or (b or c)", "a or b or c"],
    ["not (a and b)", "not (a and b)"],
    ["not (a == 1)", "not (a == 1)"],
    ["(not a) == b", "(not a) == b"],
    ["(a == b) != (c < 1)", "(a == b) != (c < 1)"],
    ["not not (a)", "not not a"],
    ["x == 1.50", "x == 1.5"],
    ["x == 007", "x == 7"],
    ["x == -0", "x == 0"],
    ["x == 10000000000000000000000", "x == 10000000000000000000000"],
    ["x == 1234567890123456789012345", "x == 1234567890123456800000000"],
    ["x == 0.0000001", "x == 0.0000001"],
    ["x == -0.00000012", "x == -0.00000012"],
    [String.raw`s == 'say "hi"\\'`, String.raw`s == "say \"hi\"\\"`],
    [String.raw`s == "it\'s"`, `s == "it's"`],
    ["true or false", "true or false"],
  ])("%s → %s", (source, canonical) => {
    expect(formatCondition(tree(source))).toBe(canonical);
  });
});

/** Sources whose canonical form must parse back to the same tree. */
const ROUND_TRIP_SOURCES = [
  "g_test",
  "should_restart",
  "not g_impl",
  "attempts >= 3 and not done",
  'status == "ready" or (score > 0.5 and g_review)',
  "language != 'python'",
  "true",
  "((a or b) and (c or (d and not e))) or f",
  "!(!a || !b) && (c != 'x\\'y' || d <= -3.25)",
  "(a < 1) == (b > 2)",
  "(not (a or b)) != false",
  "(a and b) == (c or d)",
  "x == 123456789012345678901234567890",
  "x > 0.000000000000001",
  String.raw`q == "\\\"\'"`,
  "not not not a",
  "((((((a))))))",
];

describe("formatCondition: round trip", () => {
  it.each(ROUND_TRIP_SOURCES)("parse(format(parse(%j))) equals parse(x)", (source) => {
    const first = tree(source);
    const text = formatCondition(first);
    expect(tree(text)).toEqual(first);
    expect(formatCondition(tree(text))).toBe(text);
  });
});

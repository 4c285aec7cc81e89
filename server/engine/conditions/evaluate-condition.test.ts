import { describe, expect, it } from "vitest";
import { ConditionError, isConditionError } from "./condition-error";
import type { ConditionNode, ConditionValue } from "./condition-node";
import { evaluateCondition, type ConditionScope } from "./evaluate-condition";
import { parseCondition } from "./parse-condition";

function tree(source: string): ConditionNode {
  const result = parseCondition(source);
  if (!result.ok) throw new Error(`expected ${source} to parse: ${result.message}`);
  return result.expression;
}

const scope: Record<string, ConditionValue> = {
  g_test: true,
  g_impl: false,
  g_review: true,
  should_restart: false,
  attempts: 3,
  zero: 0,
  score: 0.75,
  status: "ready",
  empty: "",
  language: "typescript",
  done: false,
};

const evaluate = (source: string, over: ConditionScope = scope) => evaluateCondition(tree(source), over);

describe("evaluateCondition", () => {
  it.each<[string, boolean]>([
    ["g_test", true],
    ["should_restart", false],
    ["not g_impl", true],
    ["attempts >= 3 and not done", true],
    ["attempts > 3 and not done", false],
    ['status == "ready" or (score > 0.5 and g_review)', true],
    ['status == "draft" or (score > 0.5 and g_review)', true],
    ['status == "draft" or (score > 0.8 and g_review)', false],
    ["language != 'python'", true],
    ["true", true],
    ["false", false],
    // Truthiness: numbers when not 0, strings when not empty.
    ["attempts", true],
    ["zero", false],
    ["status", true],
    ["empty", false],
    ["not empty", true],
    ["0", false],
    ["-1", true],
    ["''", false],
    // Equality never coerces across types.
    ['attempts == "3"', false],
    ['attempts != "3"', true],
    ["zero == false", false],
    ["zero != false", true],
    ["g_test == true", true],
    ["g_impl != false", false],
    ["attempts == 3.0", true],
    ["zero == -0", true],
    // Ordering: numbers numerically, strings by code units.
    ["attempts < 4", true],
    ["attempts <= 3", true],
    ["attempts > 3", false],
    ["score >= 0.75", true],
    ["-2 < -1.5", true],
    ['status < "ready2"', true],
    ['"B" < "a"', true],
    ["(not g_impl) == true", true],
    ["(attempts > 1) == g_test", true],
    ["g_impl or zero or empty", false],
    ["g_test && attempts && status", true],
  ])("%s → %s", (source, expected) => {
    expect(evaluate(source)).toBe(expected);
  });

  it("accepts a lookup function as the scope", () => {
    const seen: string[] = [];
    const lookup = (name: string) => {
      seen.push(name);
      return name === "n" ? 2 : undefined;
    };
    expect(evaluate("n == 2", lookup)).toBe(true);
    expect(seen).toEqual(["n"]);
  });
});

describe("evaluateCondition: errors", () => {
  it.each([
    ["missing", 'unknown name "missing" in condition'],
    ["g_test and missing", 'unknown name "missing" in condition'],
    ['attempts < "4"', "cannot compare number with string"],
    ["status > 1", "cannot compare string with number"],
    ["g_test < g_impl", "cannot compare boolean with boolean"],
  ])("%s throws %s", (source, message) => {
    let caught: unknown;
    try {
      evaluate(source);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConditionError);
    expect(caught).toMatchObject({ name: "ConditionError", code: "INVALID_CONDITION", message });
    expect(isConditionError(caught)).toBe(true);
  });

  it("rejects values that are not booleans, numbers or strings", () => {
    const loose = { nothing: null, list: [1], object: {} } as unknown as ConditionScope;
    expect(() => evaluate("nothing", loose)).toThrow('"nothing" is null; conditions use booleans, numbers and strings');
    expect(() => evaluate("list", loose)).toThrow('"list" is a object; conditions use booleans, numbers and strings');
    expect(() => evaluate("object == 1", loose)).toThrow(ConditionError);
  });

  it("reads only own properties of a record scope", () => {
    const inherited = Object.create({ inheritedFlag: true, hasOwn: true }) as Record<string, ConditionValue>;
    inherited.own = true;
    expect(evaluate("own", inherited)).toBe(true);
    expect(() => evaluate("inheritedFlag", inherited)).toThrow('unknown name "inheritedFlag" in condition');
    expect(() => evaluate("hasOwn", inherited)).toThrow(ConditionError);
    // A name the parser would reject never reaches a scope; hand-built trees still miss the prototype.
    expect(() => evaluateCondition({ kind: "name", name: "__proto__" }, {})).toThrow(ConditionError);
    expect(() => evaluateCondition({ kind: "name", name: "constructor" }, {})).toThrow(ConditionError);
  });

  it("does not treat isConditionError as true for other errors", () => {
    expect(isConditionError(new Error("x"))).toBe(false);
    expect(isConditionError({ code: "INVALID_CONDITION" })).toBe(false);
  });
});

describe("evaluateCondition: short-circuit", () => {
  it.each([
    ["g_impl and missing", false],
    ["g_test or missing", true],
    ["g_impl and missing < 'x' and also_missing", false],
    ["zero and (missing == 1)", false],
    ["(g_test or missing) and (g_impl and missing)", false],
    ["not (g_test or missing)", false],
  ])("%s → %s without reading the unknown names", (source, expected) => {
    const lookup = (name: string) => {
      if (name.includes("missing")) throw new Error(`looked up ${name}`);
      return scope[name];
    };
    expect(evaluate(source, lookup)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { isConditionError } from "./condition-error";
import { evaluateCondition } from "./evaluate-condition";
import { formatCondition } from "./format-condition";
import { parseCondition } from "./parse-condition";

/** Seeded (mulberry32), so a failure reproduces exactly. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  ..."abcxyz_ABZ0123456789 \t\n()!=<>&|-.\"'\\$`;[]{}+*/,?:@#%^~😀\u0000\u00a0é",
  "and", "or", "not", "true", "false", "==", "!=", "<=", ">=", "&&", "||", "__proto__", "constructor", "g_test", " and ", " or ", "((", "))",
];

/** Every name gets a value of a random type, so evaluation reaches comparisons of every kind. */
function scopeFor(names: readonly string[], next: () => number): Record<string, boolean | number | string> {
  const values = [true, false, 0, 1, -2.5, "", "x"];
  return Object.fromEntries(names.map((name) => [name, values[Math.floor(next() * values.length)] as boolean | number | string]));
}

describe("fuzz: random strings", () => {
  it("parse 2,000 random strings to a clean result, never an exception", () => {
    const next = random(0xd5a1);
    let parsed = 0;
    for (let run = 0; run < 2000; run++) {
      const length = Math.floor(next() * 40);
      const source = Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join("");
      const result = parseCondition(source);
      if (!result.ok) {
        expect(typeof result.message, source).toBe("string");
        expect(result.message.length, source).toBeGreaterThan(0);
        expect(Number.isInteger(result.column) && result.column >= 1 && result.column <= source.length + 1, source).toBe(true);
        continue;
      }
      parsed++;
      expect(parseCondition(formatCondition(result.expression)), source).toMatchObject({ ok: true, expression: result.expression });
      try {
        expect(typeof evaluateCondition(result.expression, scopeFor(result.names, next))).toBe("boolean");
      } catch (error) {
        expect(isConditionError(error), `${source}: ${String(error)}`).toBe(true);
      }
    }
    // Mostly rejects, but the alphabet is rich enough that some strings are valid conditions.
    expect(parsed).toBeGreaterThan(20);
  });
});

/** Random valid source text: extra parentheses, both spellings of each operator, odd spacing. */
function randomSource(next: () => number, depth: number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const space = () => pick(["", " ", "  ", "\n"]);
  const atom = () => pick(["a", "b", "g_test", "n1", "true", "false", "0", "-3", "2.5", "'s'", '"t\\"u"']);
  const choice = depth <= 0 ? 0 : Math.floor(next() * 5);
  switch (choice) {
    case 0:
      return atom();
    case 1:
      return `${pick(["not ", "!"])}${space()}(${randomSource(next, depth - 1)})`;
    case 2:
      return `${atom()}${space()}${pick(["==", "!=", "<", "<=", ">", ">="])}${space()}${atom()}`;
    case 3:
      return `(${randomSource(next, depth - 1)})${space()}${pick([" and ", "&&"])}${space()}(${randomSource(next, depth - 1)})`;
    default:
      return `${randomSource(next, depth - 1)}${space()}${pick([" or ", "||"])}${space()}${randomSource(next, depth - 1)}`;
  }
}

describe("fuzz: random valid conditions", () => {
  it("round-trip through formatCondition for 1,000 generated sources", () => {
    const next = random(0xc0de);
    for (let run = 0; run < 1000; run++) {
      const source = randomSource(next, 5);
      const first = parseCondition(source);
      if (!first.ok) throw new Error(`${source}: ${first.message}`);
      const text = formatCondition(first.expression);
      expect(parseCondition(text), source).toEqual({ ok: true, expression: first.expression, names: first.names });
    }
  });
});

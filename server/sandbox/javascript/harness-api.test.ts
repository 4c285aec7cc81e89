import { describe, expect, it } from "vitest";
import { expectStatus, runSandbox } from "./test-helpers";

/** Runs one sandbox test per entry; returns each test's failure message ("" when it passed). */
async function messages(cases: Record<string, string>): Promise<Record<string, string>> {
  const tests = Object.entries(cases)
    .map(([name, body]) => `test(${JSON.stringify(name)}, async () => { ${body} });`)
    .join("\n");
  const outcome = await runSandbox("class Box { constructor(public value: number) {} }", tests);
  if (!("tests" in outcome)) throw new Error(JSON.stringify(outcome));
  return Object.fromEntries(outcome.tests.map((test) => [test.name, (test.message ?? "").replace(/ \(at tests\.ts:\d+:\d+\)$/, "")]));
}

describe("the sandbox's expect()", () => {
  it("passes matching expectations", async () => {
    const results = await messages({
      toBe: "expect(1 + 1).toBe(2); expect(NaN).toBe(NaN);",
      toEqual: "expect({ a: [1, { b: 2 }], c: undefined }).toEqual({ a: [1, { b: 2 }] }); expect(new Map([[1, { x: 1 }]])).toEqual(new Map([[1, { x: 1 }]])); expect(new Set([1, [2]])).toEqual(new Set([[2], 1]));",
      toStrictEqual: "expect([new Box(1)]).toStrictEqual([new Box(1)]); expect(new Date(5)).toStrictEqual(new Date(5));",
      truthiness: "expect(1).toBeTruthy(); expect('').toBeFalsy(); expect(null).toBeNull(); expect(undefined).toBeUndefined(); expect(0).toBeDefined(); expect(NaN).toBeNaN();",
      toContain: "expect([1, 2, 3]).toContain(2); expect('hello').toContain('ell'); expect(new Set(['a'])).toContain('a'); expect([{ a: 1 }]).toContainEqual({ a: 1 });",
      toThrow: "expect(() => { throw new TypeError('bad thing'); }).toThrow(); expect(() => { throw new TypeError('bad thing'); }).toThrow('bad'); expect(() => { throw new TypeError('bad thing'); }).toThrow(/thing$/); expect(() => { throw new TypeError('x'); }).toThrow(TypeError);",
      ordering: "expect(3).toBeGreaterThan(2); expect(2).toBeLessThan(3); expect(2).toBeGreaterThanOrEqual(2); expect(2).toBeLessThanOrEqual(2); expect(0.1 + 0.2).toBeCloseTo(0.3);",
      misc: "expect([1, 2]).toHaveLength(2); expect('abc').toMatch(/b/); expect(new Box(1)).toBeInstanceOf(Box); expect({ a: { b: 1 } }).toHaveProperty('a.b', 1);",
      not: "expect(1).not.toBe(2); expect([1]).not.toEqual([2]); expect(() => {}).not.toThrow(); expect([1]).not.toContain(2);",
      async: "await expect(Promise.resolve(3)).resolves.toBe(3); await expect(Promise.reject(new Error('nope'))).rejects.toThrow('nope');",
    });
    for (const [name, message] of Object.entries(results)) expect({ name, message }).toEqual({ name, message: "" });
  });

  it("explains failures with the expected and the actual value", async () => {
    const results = await messages({
      toBe: "expect(2).toBe(3);",
      toBeObject: "expect({ a: 1 }).toBe({ a: 1 });",
      toEqual: "expect({ a: [1, 2], b: 'x' }).toEqual({ a: [1, 3], b: 'x' });",
      toStrictEqual: "expect({ a: undefined }).toStrictEqual({});",
      not: "expect(2).not.toBe(2);",
      toContain: "expect([1, 2]).toContain(3);",
      toHaveLength: "expect([1]).toHaveLength(2);",
      toThrowNothing: "expect(() => 1).toThrow();",
      toThrowOther: "expect(() => { throw new Error('other'); }).toThrow('expected text');",
      ordering: "expect(1).toBeGreaterThan(2);",
      label: "expect(1, 'the answer').toBe(2);",
      resolves: "await expect(Promise.reject(new Error('boom'))).resolves.toBe(1);",
      rejects: "await expect(Promise.resolve(1)).rejects.toThrow();",
      long: "expect('x'.repeat(1000)).toBe('y');",
    });
    expect(results).toEqual({
      toBe: "expected 2 to be 3",
      toBeObject: "expected { a: 1 } to be { a: 1 } (they are deeply equal but not the same object: use toEqual)",
      toEqual: 'expected { a: [1, 2], b: "x" } to equal { a: [1, 3], b: "x" }',
      toStrictEqual: "expected { a: undefined } to strictly equal {}",
      not: "expected 2 not to be 2",
      toContain: "expected [1, 2] to contain 3",
      toHaveLength: "expected [1] to have length 2, but its length is 1",
      toThrowNothing: "expected function to throw, but it did not throw",
      toThrowOther: 'expected function to throw an error matching "expected text", but it threw Error: other',
      ordering: "expected 1 to be greater than 2",
      label: "the answer: expected 1 to be 2",
      resolves: "expected the promise to resolve, but it rejected with Error: boom",
      rejects: "expected the promise to reject, but it resolved with 1",
      long: expect.stringMatching(/^expected "x{150,}…" to be "y"$/),
    });
    expect(results.long!.length).toBeLessThan(300);
  });
});

describe("values in messages", () => {
  it("renders every kind of value compactly, without running getters", async () => {
    const results = await messages({
      map: "expect(new Map([[1, 'a']])).toEqual(new Map());",
      bigSet: "expect(new Set(Array.from({ length: 100 }, (_, i) => i))).toBe(1);",
      circular: "const a: any = { name: 'a' }; a.self = a; expect(a).toBe(2);",
      nested: "expect({ a: { b: { c: { d: 1 } } } }).toBe(2);",
      kinds: "expect([undefined, null, -0, 1n, Symbol('s'), () => 1, new Date(0), /x/gi, new RangeError('r')]).toBe(2);",
      instance: "expect(new Box(3)).toBe(2);",
      getter: "expect({ get boom() { throw new Error('no'); } }).toBe(2);",
      sparse: "expect([1, , 3]).toBe(2);",
    });
    expect(results).toEqual({
      map: 'expected Map(1) {1 => "a"} to equal Map(0) {}',
      bigSet: expect.stringMatching(/^expected Set\(100\) \{0, 1, .*, 19, … 80 more\} to be 1$/),
      circular: 'expected { name: "a", self: [Circular] } to be 2',
      nested: "expected { a: { b: { c: [Object] } } } to be 2",
      kinds: 'expected [undefined, null, -0, 1n, Symbol(s), [Function (anonymous)], Date(1970-01-01T00:00:00.000Z), /x/gi, RangeError: r] to be 2',
      instance: "expected Box { value: 3 } to be 2",
      getter: "expected { boom: [Getter] } to be 2",
      sparse: "expected [1, <empty>, 3] to be 2",
    });
  });
});

describe("the sandbox's assert()", () => {
  it("passes true assertions", async () => {
    const results = await messages({
      all: `assert(1); assert.ok(true); assert.equal(1, "1"); assert.notEqual(1, 2); assert.strictEqual(NaN, NaN);
            assert.notStrictEqual(1, "1"); assert.deepEqual({ a: [1] }, { a: [1] }); assert.deepStrictEqual([1], [1]);
            assert.notDeepEqual([1], [2]); assert.throws(() => { throw new Error("x"); }, /x/); assert.doesNotThrow(() => 1);
            assert.match("abc", /b/); await assert.rejects(Promise.reject(new Error("r")), "r");`,
    });
    expect(results).toEqual({ all: "" });
  });

  it("explains failed assertions, or uses the given message", async () => {
    const results = await messages({
      assert: "assert(0);",
      message: "assert(false, 'custom message');",
      equal: "assert.equal(1, 2);",
      strictEqual: "assert.strictEqual(1, '1');",
      deepEqual: "assert.deepEqual([1, { a: 2 }], [1, { a: 3 }]);",
      throws: "assert.throws(() => 1);",
      fail: "assert.fail('stop here');",
    });
    expect(results).toEqual({
      assert: "expected 0 to be truthy",
      message: "custom message",
      equal: "expected 1 to equal 2 (==)",
      strictEqual: 'expected 1 to strictly equal "1"',
      deepEqual: "expected [1, { a: 2 }] to deeply equal [1, { a: 3 }]",
      throws: "expected function to throw, but it did not throw",
      fail: "stop here",
    });
  });

  it("describes what a test threw, whatever it was", async () => {
    const outcome = await runSandbox(
      "",
      `test("number", () => { throw 42; });
       test("string", () => { throw "oops"; });
       test("null", () => { throw null; });
       test("object", () => { throw { code: 7 }; });
       test("custom", () => { class MyError extends Error { name = "MyError"; } throw new MyError("mine"); });`,
    );
    const tests = expectStatus(outcome, "failed").tests.map((test) => [test.name, test.message?.replace(/ \(at tests\.ts:\d+:\d+\)$/, "")]);
    expect(Object.fromEntries(tests)).toEqual({
      number: "threw a non-Error value: 42",
      string: 'threw a non-Error value: "oops"',
      null: "threw a non-Error value: null",
      object: "threw a non-Error value: { code: 7 }",
      custom: "MyError: mine",
    });
  });
});

import { describe, expect, it } from "vitest";
import type { TestRunOutcome } from "../types";
import { runSandbox } from "./test-helpers";

/** Tests that must never count as passed: one fails for real, one awaits first and then fails. */
const FAILING_TESTS = `
test("sync failure", () => { expect(1 + 1).toBe(3); });
test("async failure", async () => { await new Promise((r) => setTimeout(r, 5)); assert.equal(2, 3); });
test("passes", () => { expect(true).toBeTruthy(); });
`;

/** The tampering artifact may make the run fail, error or end incomplete, but never pass. */
function expectNoFalsePass(outcome: TestRunOutcome): void {
  expect(outcome.status).not.toBe("passed");
  if (outcome.status === "failed") {
    const byName = Object.fromEntries(outcome.tests.map((test) => [test.name, test.passed]));
    expect(byName).toEqual({ "sync failure": false, "async failure": false, passes: true });
  }
}

const TAMPERING_ARTIFACTS: Record<string, string> = {
  "replaces test/expect/assert (sloppy)": `
    globalThis.test = (_name, _fn) => {}; globalThis.it = globalThis.test;
    globalThis.expect = () => ({ toBe() {}, toEqual() {} });
    globalThis.assert = Object.assign(() => {}, { equal() {} });`,
  "replaces test/expect/assert (strict)": `"use strict"; globalThis.expect = () => ({ toBe() {} });`,
  "redefines the helpers with defineProperty": `Object.defineProperty(globalThis, "expect", { value: () => ({ toBe() {} }) });`,
  "shadows a helper with a let": `let expect = () => ({ toBe() {} });`,
  "shadows a helper with a function": `function assert() {}`,
  "patches the matchers": `const proto = Object.getPrototypeOf(expect(1)); try { proto.toBe = () => {}; } catch {} try { assert.equal = () => {}; } catch {}`,
  "overwrites Array.prototype.push": `Array.prototype.push = function () { return 0; };`,
  "defines setters for array indices": `for (let i = 0; i < 10; i++) Object.defineProperty(Array.prototype, i, { set() {}, get() { return undefined; }, configurable: true });`,
  "tampers with Object.prototype": `
    Object.defineProperty(Object.prototype, "get", { value: () => 1, configurable: true });
    Object.defineProperty(Object.prototype, "passed", { get() { return true; }, configurable: true });
    Object.defineProperty(Object.prototype, "value", { get() { throw new Error("no"); }, configurable: true });`,
  "makes every then lookup throw": `Object.defineProperty(Object.prototype, "then", { get() { throw new Error("gotcha"); }, configurable: true });`,
  "replaces Promise": `globalThis.Promise = function FakePromise(executor) { executor(() => {}, () => {}); };`,
  "patches Promise.prototype.then": `const then = Promise.prototype.then; Promise.prototype.then = function (ok) { return then.call(this, ok, ok); };`,
  "breaks the promise species": `Object.defineProperty(Promise.prototype, "constructor", { get() { throw new Error("no species"); } });`,
  "replaces JSON, Object.is, Reflect.apply": `JSON.stringify = () => "same"; Object.is = () => true; Reflect.apply = () => undefined; Object.keys = () => [];`,
  "replaces console": `try { console.log = () => {}; } catch {} try { globalThis.console = {}; } catch {}`,
  "throws from getters on the error prototype": `
    Object.defineProperty(Error.prototype, "message", { get() { throw new Error("message getter"); }, configurable: true });
    Object.defineProperty(Error.prototype, "name", { get() { throw new Error("name getter"); }, configurable: true });`,
  "patches RegExp and String methods": `RegExp.prototype.exec = () => null; String.prototype.slice = () => ""; String.prototype.indexOf = () => 0;`,
  "replaces Function.prototype.call and apply": `Function.prototype.call = function () {}; Function.prototype.apply = function () {};`,
  "replaces a helper later, from a timer": `setTimeout(() => { try { Object.defineProperty(globalThis, "assert", { value: Object.assign(() => {}, { equal() {} }) }); } catch {} }, 0);`,
  "replaces a helper later, from a microtask": `queueMicrotask(() => { try { Object.defineProperty(globalThis, "expect", { value: () => ({ toBe() {} }) }); } catch {} });`,
};

describe("an artifact tampering with the test helpers never gets failing tests counted as passed", () => {
  for (const [name, artifact] of Object.entries(TAMPERING_ARTIFACTS)) {
    it(name, async () => {
      expectNoFalsePass(await runSandbox(artifact, FAILING_TESTS, { language: "javascript" }));
    });
  }

  it("keeps reporting the real results when the replacement was refused", async () => {
    const outcome = await runSandbox(TAMPERING_ARTIFACTS["replaces test/expect/assert (sloppy)"]!, FAILING_TESTS, { language: "javascript" });
    expect(outcome.status).toBe("failed");
  });

  it("keeps the tests' helpers whatever the artifact declares or defines under their names", async () => {
    for (const artifact of ["let expect = () => ({ toBe() {} });", "function assert() {}", TAMPERING_ARTIFACTS["redefines the helpers with defineProperty"]!]) {
      const outcome = await runSandbox(artifact, FAILING_TESTS, { language: "javascript" });
      expect(outcome.status).toBe("failed");
    }
  });

  it("ends incomplete when the artifact breaks the harness itself", async () => {
    const outcome = await runSandbox(TAMPERING_ARTIFACTS["breaks the promise species"]!, FAILING_TESTS, { language: "javascript" });
    expect(outcome).toMatchObject({ status: "incomplete", message: expect.stringMatching(/did not reach their end/) });
  });

  it("does not let the artifact register tests", async () => {
    const outcome = await runSandbox("test('planted', () => {});", "test('real', () => {});", { language: "javascript" });
    expect(outcome).toMatchObject({ status: "error", message: expect.stringMatching(/'test' is not defined/) });
  });

  it("reports an artifact that throws a non-Error, or tries to exit, as an error", async () => {
    const thrown = await runSandbox("throw 42;", FAILING_TESTS, { language: "javascript" });
    expect(thrown).toMatchObject({ status: "error", message: "threw a non-Error value: 42, while loading the artifact" });
    for (const exit of ["process.exit(0);", "exit(0);", "quit();", "std.exit(0);", "os.exit(0);"]) {
      const outcome = await runSandbox(exit, FAILING_TESTS, { language: "javascript" });
      expect(outcome).toMatchObject({ status: "error", message: expect.stringMatching(/ReferenceError: '\w+' is not defined/) });
    }
  });

  it("cannot redefine undefined, NaN or Infinity (a QuickJS bug would allow it)", async () => {
    const artifact = `
      const attempts = [
        () => Object.defineProperty(globalThis, "undefined", { value: 1 }),
        () => Object.defineProperty(globalThis, "undefined", { value: 1, writable: false, enumerable: false, configurable: false }),
        () => Reflect.defineProperty(globalThis, "undefined", { value: 1 }) || (() => { throw new Error("refused"); })(),
        () => Object.defineProperties(globalThis, { undefined: { value: 1 }, NaN: { value: 1 } }),
        () => Object.defineProperty(new Proxy(globalThis, {}), "undefined", { value: 1 }),
        () => Object.defineProperty(Proxy.revocable(globalThis, {}).proxy, "Infinity", { value: 1 }),
      ];
      const refused = attempts.filter((attempt) => { try { attempt(); return false; } catch { return true; } }).length;
      function one() { return 1; }`;
    const outcome = await runSandbox(
      artifact,
      `test("all refused", () => { expect(refused).toBe(6); });
       test("toBe(undefined)", () => { expect(one()).toBe(undefined); });
       test("toBeUndefined", () => { expect(one()).toBeUndefined(); });
       test("constants", () => { expect([undefined === void 0, Number.isNaN(NaN), Infinity === 1 / 0]).toEqual([true, true, true]); });`,
      { language: "javascript" },
    );
    expect(outcome.status).toBe("failed");
    if (outcome.status !== "failed") return;
    expect(outcome.tests.map((test) => test.passed)).toEqual([true, false, false, true]);
  });

  it("matches regular expressions with the built-in exec, whatever the artifact patched", async () => {
    const outcome = await runSandbox(
      `RegExp.prototype.exec = function () { return ["x"]; }; RegExp.prototype.test = () => true;
       Object.defineProperty(RegExp.prototype, "flags", { get: () => "g" });`,
      `test("toMatch", () => { expect("abc").toMatch(/z/); });
       test("assert.match", () => { assert.match("abc", /z/); });
       test("toThrow", () => { expect(() => { throw new Error("abc"); }).toThrow(/z/); });
       test("regex equality", () => { expect(/a/g).toEqual(/a/i); });`,
      { language: "javascript" },
    );
    expect(outcome.status).toBe("failed");
    if (outcome.status !== "failed") return;
    expect(outcome.tests.map((test) => test.passed)).toEqual([false, false, false, false]);
  });

  it("still lets code define its own properties normally", async () => {
    const outcome = await runSandbox(
      `const o = {}; Object.defineProperty(o, "x", { value: 1, enumerable: true });
       Object.defineProperties(o, { y: { get: () => 2, enumerable: true } });
       Reflect.defineProperty(globalThis, "shared", { value: 3, writable: true, configurable: true });
       const p = new Proxy({ a: 1 }, { get: (t, k) => (k === "a" ? 10 : undefined) });`,
      `test("defines", () => { expect({ ...o }).toEqual({ x: 1, y: 2 }); expect(shared).toBe(3); expect(p.a).toBe(10); });`,
      { language: "javascript" },
    );
    expect(outcome.status).toBe("passed");
  });

  it("fails a test whose value has a throwing getter", async () => {
    const outcome = await runSandbox(
      "export const result = { get value(): number { throw new Error('getter exploded'); } };",
      "test('reads', () => { expect(result.value).toBe(1); }); test('formats', () => { expect(result).toEqual({ value: 1 }); });",
    );
    expect(outcome.status).toBe("failed");
    if (outcome.status !== "failed") return;
    expect(outcome.tests.map((test) => test.message?.replace(/ \(at .*\)$/, ""))).toEqual(["Error: getter exploded", "Error: getter exploded"]);
  });
});

import { describe, expect, it } from "vitest";
import { expectStatus, failureOf, runSandbox } from "./test-helpers";

describe("runJavaScriptTests: test results", () => {
  it("passes when every test passes, and reports each test by name", async () => {
    const outcome = await runSandbox(
      "function add(a, b) { return a + b; }",
      `test("adds", () => { expect(add(1, 2)).toBe(3); });
       it("adds negatives", () => { assert.equal(add(-1, -2), -3); });`,
      { language: "javascript" },
    );
    expect(expectStatus(outcome, "passed").tests).toEqual([
      { name: "adds", passed: true },
      { name: "adds negatives", passed: true },
    ]);
  });

  it("fails with an expected-vs-actual message and the line of the assertion", async () => {
    const outcome = await runSandbox(
      "function add(a, b) { return a - b; }",
      `test("ok", () => expect(add(2, 0)).toBe(2));\n\ntest("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});`,
      { language: "javascript" },
    );
    expectStatus(outcome, "failed");
    expect(failureOf(outcome, "ok")).toBeUndefined();
    expect(failureOf(outcome, "adds")).toBe("expected -1 to be 3 (at tests.js:4:25)");
  });

  it("runs async tests with virtual timers, in registration order", async () => {
    const outcome = await runSandbox(
      "const log: string[] = []; async function later<T>(value: T, ms: number): Promise<T> { await new Promise((r) => setTimeout(r, ms)); return value; }",
      `test("slow first", async () => { log.push("a:" + await later(1, 10_000)); });
       test("then fast", async () => { log.push("b:" + await later(2, 1)); });
       test("order", () => { expect(log).toEqual(["a:1", "b:2"]); });`,
    );
    expectStatus(outcome, "passed");
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it("moves Date along with the virtual clock", async () => {
    const outcome = await runSandbox(
      `export function makeThrottle(ms: number) { let last = -Infinity; return () => { const now = Date.now(); if (now - last < ms) return false; last = now; return true; }; }`,
      `test("time passes while waiting", async () => {
         const start = Date.now();
         const ok = makeThrottle(500);
         expect(ok()).toBe(true);
         expect(ok()).toBe(false);
         await new Promise((r) => setTimeout(r, 600));
         expect(ok()).toBe(true);
         expect(Date.now() - start).toBeGreaterThanOrEqual(600);
         expect(new Date().getTime() - start).toBeGreaterThanOrEqual(600);
       });
       test("the rest of Date is the real one", () => {
         expect(new Date(0).toISOString()).toBe("1970-01-01T00:00:00.000Z");
         expect(new Date() instanceof Date).toBe(true);
         expect(typeof Date()).toBe("string");
         expect(Date.UTC(2020, 0, 1)).toBe(1577836800000);
       });`,
    );
    expectStatus(outcome, "passed");
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it("fails an async test whose promise rejects, and carries on with the next", async () => {
    const outcome = await runSandbox(
      "",
      `test("rejects", async () => { await null; throw new TypeError("bad input"); });
       test("next", () => {});`,
    );
    expectStatus(outcome, "failed");
    expect(failureOf(outcome, "rejects")).toMatch(/^TypeError: bad input \(at tests\.ts:1:\d+\)$/);
    expect(failureOf(outcome, "next")).toBeUndefined();
  });

  it("fails a test that waits for a promise that can never settle", async () => {
    const outcome = await runSandbox("", `test("hangs", () => new Promise(() => {})); test("next", () => {});`);
    expectStatus(outcome, "failed");
    expect(failureOf(outcome, "hangs")).toMatch(/never finished/);
    expect(failureOf(outcome, "next")).toBeUndefined();
  });

  it("attributes an error thrown in a timer callback to the running test", async () => {
    const outcome = await runSandbox(
      "",
      `test("timer throws", () => new Promise((resolve) => { setTimeout(() => { expect(1).toBe(2); resolve(undefined); }, 5); }));
       test("next", () => {});`,
    );
    expectStatus(outcome, "failed");
    expect(failureOf(outcome, "timer throws")).toMatch(/^uncaught error in a setTimeout callback: expected 1 to be 2/);
  });

  it("groups tests with describe()", async () => {
    const outcome = await runSandbox("", `describe("math", () => { describe("add", () => { test("works", () => {}); }); });`);
    expect(expectStatus(outcome, "passed").tests).toEqual([{ name: "math > add > works", passed: true }]);
  });

  it("turns a failing top-level assertion into a failed test named (top level)", async () => {
    const outcome = await runSandbox("const answer = 41;", "assert.strictEqual(answer, 42);");
    expect(expectStatus(outcome, "failed").tests).toEqual([{ name: "(top level)", passed: false, message: "expected 41 to strictly equal 42 (at tests.ts:1:19)" }]);
  });

  it("reports test code without test() calls as one passing (top level) test", async () => {
    const outcome = await runSandbox("const answer = 42;", "assert(answer === 42);");
    expect(expectStatus(outcome, "passed").tests).toEqual([{ name: "(top level)", passed: true }]);
  });

  it("reports a thrown error at the top level as an error with its name, message and line", async () => {
    const artifactError = await runSandbox("const x = 1;\nconst y: any = undefined;\ny.boom();", "test('t', () => {});");
    expect(expectStatus(artifactError, "error").message).toBe("TypeError: cannot read property 'boom' of undefined (at artifact.ts:3:2), while loading the artifact");
    const testsError = await runSandbox("", "\nnotDefined();");
    expect(expectStatus(testsError, "error").message).toBe("ReferenceError: 'notDefined' is not defined (at tests.ts:2:1), while running the top level of the test code");
  });

  it("captures console output", async () => {
    const outcome = await runSandbox("console.log('loading', { ready: true });", "test('t', () => { console.error('in test', [1, 2]); });");
    expect(expectStatus(outcome, "passed").output).toBe("loading { ready: true }\nin test [1, 2]\n");
  });
});

describe("runJavaScriptTests: artifact and tests share one scope", () => {
  it("makes every kind of export visible to the tests by name", async () => {
    const outcome = await runSandbox(
      `export function add(a: number, b: number): number { return a + b; }
       export default class Calculator { twice(n: number) { return 2 * n; } }
       export const answer = 42;
       export let counter = 0;
       export enum Color { Red = "red" }
       const internal = 7;
       export { internal as renamed };`,
      `test("all reachable", () => {
         expect(add(1, 2)).toBe(3);
         expect(new Calculator().twice(4)).toBe(8);
         expect(answer).toBe(42);
         expect(counter).toBe(0);
         expect(Color.Red).toBe("red");
         expect(renamed).toBe(7);
       });`,
    );
    expectStatus(outcome, "passed");
  });

  it("binds anonymous default exports to _default", async () => {
    const fn = await runSandbox("export default function (n: number) { return n + 1; }", "test('t', () => expect(_default(1)).toBe(2));");
    expectStatus(fn, "passed");
    const value = await runSandbox("export default { name: 'config' };", "test('t', () => expect(_default.name).toBe('config'));");
    expectStatus(value, "passed");
  });

  it("transpiles TypeScript: annotations, interfaces, generics, type-only imports, classes", async () => {
    const outcome = await runSandbox(
      `import type { Something } from "./types";
       interface Point { x: number; y: number }
       type Pair<T> = [T, T];
       export class Vector implements Point {
         #secret = 1;
         constructor(public x: number, public y: number) {}
         plus(other: Point): Vector { return new Vector(this.x + other.x, this.y + other.y); }
         static zero(): Vector { return new Vector(0, 0); }
       }
       export function swap<T>([a, b]: Pair<T>): Pair<T> { return [b, a]; }
       export const nothing: Something | null = null;`,
      `test("vector", () => { expect(new Vector(1, 2).plus({ x: 3, y: 4 })).toEqual(new Vector(4, 6)); });
       test("generic", () => { const pair: [string, string] = ["a", "b"]; expect(swap(pair)).toEqual(["b", "a"]); });`,
    );
    expectStatus(outcome, "passed");
  });

  it("maps positions in TypeScript messages back to the source as written", async () => {
    const outcome = await runSandbox(
      "interface Unused {\n  a: number;\n}\ntype Alias = string;\nexport function fails(): never {\n  throw new RangeError('out of range');\n}",
      "test('t', () => { fails(); });",
    );
    expect(failureOf(expectStatus(outcome, "failed"), "t")).toBe("RangeError: out of range (at artifact.ts:6:23)");
  });

  it("refuses a module that is neither the artifact nor provided, naming it and the line", async () => {
    const artifact = await runSandbox("import { readFileSync } from 'fs';\nexport const read = readFileSync;", "test('t', () => {});");
    expect(expectStatus(artifact, "error").message).toMatch(/^Error: module 'fs' is not available in the sandbox: the artifact can require assert.* \(at artifact\.ts:1:\d+\), while loading the artifact$/);
    const tests = await runSandbox("export const x = 1;", "const x = 2;\nimport { x as y } from './artifact';\nimport _ from 'lodash';\ntest('t', () => expect(_.identity(y)).toBe(1));");
    expect(expectStatus(tests, "error").message).toMatch(/^Error: module 'lodash' is not available in the sandbox: the tests can require .* \(at tests\.ts:3:\d+\)/);
    const reexport = await runSandbox("export * from 'lodash';", "");
    expect(expectStatus(reexport, "error").message).toMatch(/module 'lodash' is not available .*artifact\.ts:1/);
    const required = await runSandbox("const fs = require('fs');", "test('t', () => {});", { language: "javascript" });
    expect(expectStatus(required, "error").message).toMatch(/^Error: module 'fs' is not available in the sandbox.*\(at artifact\.js:1:\d+\)/);
  });

  it("runs ES module tests that await at their top level, and reports what their top level throws", async () => {
    const awaited = await runSandbox(
      "export function add(a: number, b: number) { return a + b; }",
      "const { add } = await import('./add.js');\nawait new Promise((r) => setTimeout(r, 1000));\ntest('adds', () => expect(add(1, 2)).toBe(3));",
    );
    expect(expectStatus(awaited, "passed").tests).toEqual([{ name: "adds", passed: true }]);
    const refused = await runSandbox("", "const fs = await import('fs');\ntest('t', () => {});");
    expect(expectStatus(refused, "error").message).toMatch(/^Error: module 'fs' is not available in the sandbox.*\(at tests\.ts:1:\d+\), while running the top level/);
    const failing = await runSandbox("export const x = 1;", "await null;\nassert.strictEqual(x, 2);");
    expect(expectStatus(failing, "failed").tests).toEqual([{ name: "(top level)", passed: false, message: "expected 1 to strictly equal 2 (at tests.ts:2:19)" }]);
    const stuck = await runSandbox("", "await new Promise(() => {});\ntest('t', () => {});");
    expect(expectStatus(stuck, "error").message).toMatch(/top level of the test code awaits a promise that can never settle/);
  });

  it("accepts a shebang line in the artifact and in the tests", async () => {
    const outcome = await runSandbox(
      "#!/usr/bin/env node\nfunction add(a, b) { return a + b; }\nmodule.exports = { add };\nif (require.main === module) console.log(add(1, 2));",
      "#!/usr/bin/env node\nconst { add } = require('./add');\ntest('t', () => expect(add(1, 2)).toBe(3));",
      { language: "javascript" },
    );
    expect(expectStatus(outcome, "passed").output).toBe("");
  });

  it("does not let the artifact load the test frameworks (it could register, skip or filter tests)", async () => {
    for (const framework of ["node:test", "vitest", "@jest/globals"]) {
      const outcome = await runSandbox(`const t = require(${JSON.stringify(framework)}); t.test.only?.("planted", () => {});`, "test('real', () => { expect(1).toBe(2); });", { language: "javascript" });
      expect(expectStatus(outcome, "error").message).toMatch(/is not available in the sandbox: the artifact can require assert/);
    }
  });

  it("reports syntax errors with their position", async () => {
    const outcome = await runSandbox("export function broken( {\n  return 1;\n}", "test('t', () => {});");
    expect(expectStatus(outcome, "error").message).toMatch(/^SyntaxError in artifact\.ts: .*\(at artifact\.ts:\d+:\d+\)/);
    const typeInJs = await runSandbox("const x: number = 1;", "", { language: "javascript" });
    expect(expectStatus(typeInJs, "error").message).toMatch(/Type annotations can only be used in TypeScript files/);
  });
});

import { describe, expect, it } from "vitest";
import type { TestRunOutcome } from "../types";
import { expectStatus, failureOf, runSandbox } from "./test-helpers";

/** Tests that must never count as passed: one fails for real. */
const FAILING_CJS_TESTS = `
const assert = require('node:assert');
const { expect: importedExpect, test: importedTest } = require('vitest');
importedTest("assert fails", () => { assert.strictEqual(1 + 1, 3); });
importedTest("expect fails", () => { importedExpect(1).toBe(2); });
importedTest("passes", () => { assert.ok(true); });
`;

const FAILING_ESM_TESTS = `
import assert from 'node:assert/strict';
import * as nodeAssert from 'assert';
import { describe, it, expect } from '@jest/globals';
describe("suite", () => {
  it("strict assert fails", () => { assert.equal(1, 2); });
  it("star-imported assert fails", () => { nodeAssert.deepStrictEqual([1], [2]); });
  it("expect fails", () => { expect([1]).toEqual([2]); });
});
`;

/** Not passed; and if the tests ran, every test meant to fail ("... fails") did. */
function expectNotPassed(outcome: TestRunOutcome): void {
  expect(outcome.status).not.toBe("passed");
  if (outcome.status === "failed") {
    for (const test of outcome.tests) if (test.name.endsWith(" fails")) expect({ [test.name]: test.passed }).toEqual({ [test.name]: false });
  }
}

describe("the module system is not a way out", () => {
  it("refuses Node's modules by require, import and import(), naming the module and the line", async () => {
    for (const name of ["fs", "node:fs", "child_process", "node:child_process", "process", "node:process", "os", "net", "worker_threads", "vm", "module", "inspector"]) {
      const required = await runSandbox("", `const ok = 1;\nconst m = require(${JSON.stringify(name)});\ntest('t', () => {});`, { language: "javascript" });
      expect(expectStatus(required, "error").message).toMatch(new RegExp(`^Error: module '${name}' is not available in the sandbox: .*\\(at tests\\.js:2:\\d+\\)`));
      const imported = await runSandbox("", `import * as m from ${JSON.stringify(name)};\ntest('t', () => { expect(typeof m).toBe('object'); });`);
      expect(expectStatus(imported, "error").message).toMatch(new RegExp(`module '${name}' is not available in the sandbox.*tests\\.ts:1`));
      const dynamic = await runSandbox("", `test('t', async () => { const m = await import(${JSON.stringify(name)}); expect(m).toBeDefined(); });`);
      expect(failureOf(expectStatus(dynamic, "failed"), "t")).toMatch(new RegExp(`module '${name}' is not available in the sandbox`));
    }
  });

  it("names a hostile specifier safely, and refuses non-string specifiers", async () => {
    const long = await runSandbox("", `require("x".repeat(5000) + "\\n\\u001b[31m");`, { language: "javascript" });
    const message = expectStatus(long, "error").message;
    expect(message.length).toBeLessThan(1000);
    expect(message).not.toContain("\u001b");
    const object = await runSandbox("", `require({ toString() { return './solution'; } });`, { language: "javascript" });
    expect(expectStatus(object, "error").message).toMatch(/^TypeError: require\(\) needs a module name \(a string\)/);
  });

  it("has no require.cache, resolve or main to tamper with", async () => {
    const outcome = await runSandbox(
      "module.exports = { value: 1 };",
      `const fakeAssert = Object.assign(() => {}, { strictEqual() {} });
       require.cache['assert'] = { exports: fakeAssert };
       const assert = require('assert');
       test('t', () => { assert.strictEqual(1, 2); });`,
      { language: "javascript" },
    );
    expectNotPassed(outcome);
    expect(expectStatus(outcome, "error").message).toMatch(/TypeError/);
  });

  it("hands every importer the same frozen modules: tests cannot override them", async () => {
    const outcome = await runSandbox(
      "",
      `const assert = require('assert');
       const vitest = require('vitest');
       const attempts = [
         () => { assert.strictEqual = () => {}; },
         () => { require('node:assert/strict').equal = () => {}; },
         () => { vitest.expect = () => ({ toBe() {} }); },
         () => { Object.defineProperty(vitest, 'expect', { value: () => ({ toBe() {} }) }); },
         () => { require('node:test').test = () => {}; },
         () => { Object.setPrototypeOf(require('@jest/globals'), { expect: () => ({ toBe() {} }) }); },
         () => { require('tslib').__importDefault = (m) => ({ default: () => {} }); },
       ];
       const before = [assert.strictEqual, require('node:assert/strict').equal, vitest.expect, require('node:test').test, Object.getPrototypeOf(require('@jest/globals')), require('tslib').__importDefault];
       for (const attempt of attempts) { try { attempt(); } catch {} }
       const after = [assert.strictEqual, require('node:assert/strict').equal, vitest.expect, require('node:test').test, Object.getPrototypeOf(require('@jest/globals')), require('tslib').__importDefault];
       test('all unchanged', () => { after.forEach((value, i) => expect(value).toBe(before[i])); });
       test('assert still fails', () => { require('assert').strictEqual(1, 2); });
       test('expect still fails', () => { require('vitest').expect(1).toBe(2); });`,
      { language: "javascript" },
    );
    const failed = expectStatus(outcome, "failed");
    expect(failed.tests.map((test) => test.passed)).toEqual([true, false, false]);
    expect(failureOf(failed, "assert still fails")).toMatch(/^expected 1 to strictly equal 2/);
  });

  const ARTIFACTS: Record<string, string> = {
    "replaces module.exports of the assert module": `try { require('assert').strictEqual = () => {}; } catch {}
      try { Object.defineProperty(require('node:assert'), 'strictEqual', { value: () => {} }); } catch {}
      try { require('assert').strict.equal = () => {}; } catch {}`,
    "replaces the global require with one that returns a fake assert": `
      const fake = Object.assign(() => {}, { strictEqual() {}, equal() {}, deepStrictEqual() {}, ok() {} });
      globalThis.require = () => fake; require = () => fake;`,
    "defines globals named like the helpers": `
      globalThis.expect = () => ({ toBe() {}, toEqual() {} });
      globalThis.test = () => {}; globalThis.describe = () => {}; globalThis.it = () => {};`,
    "patches Object.defineProperty, which import interop would otherwise use": `
      const original = Object.defineProperty;
      Object.defineProperty = (o, k, d) => original(o, k, { ...d, get: () => () => {} , value: undefined, writable: undefined });
      Object.create = () => ({}); Object.getOwnPropertyNames = () => [];`,
    "exports an object whose getters tamper when the tests import it": `
      module.exports = { get value() { try { globalThis.assert = () => {}; } catch {} return 1; } };`,
    "makes its module.exports a proxy": `module.exports = new Proxy({}, { get: () => () => {} , has: () => true, ownKeys: () => ['strictEqual'], getOwnPropertyDescriptor: () => ({ value: () => {}, enumerable: true, configurable: true }) });`,
    "tries to load a test framework to filter the tests": `try { require('vitest').test.only('planted', () => {}); } catch {}
      try { require('node:test').test('planted', { only: true }, () => {}); } catch {}`,
    "puts __esModule and default getters on Object.prototype": `
      const fake = { strictEqual() {}, equal() {}, deepStrictEqual() {}, ok() {} };
      Object.defineProperty(Object.prototype, "__esModule", { get() { return true; }, configurable: true });
      Object.defineProperty(Object.prototype, "default", { get() { return fake; }, configurable: true });
      Object.defineProperty(Function.prototype, "default", { get() { return fake; }, configurable: true });`,
    "plants methods the provided modules lack on Function.prototype": `
      for (const name of ["partialDeepStrictEqual", "AssertionError", "mock"]) Object.defineProperty(Function.prototype, name, { value: () => {}, configurable: true });`,
    "fakes the __esModule marker so default imports pick a fake": `exports.__esModule = true; exports.default = { strictEqual() {}, equal() {} };`,
  };

  for (const [name, artifact] of Object.entries(ARTIFACTS)) {
    it(`an artifact that ${name} cannot make failing tests pass`, async () => {
      for (const tests of [FAILING_CJS_TESTS, FAILING_ESM_TESTS]) {
        const outcome = await runSandbox(artifact, tests, { language: "javascript" });
        expectNotPassed(outcome);
      }
    });
  }

  it("keeps methods the provided modules lack undefined, whatever the artifact plants", async () => {
    const outcome = await runSandbox(
      `for (const name of ["partialDeepStrictEqual", "extend", "poll", "cache"]) {
         Object.defineProperty(Function.prototype, name, { value: () => () => {}, configurable: true });
       }`,
      `const assert = require("node:assert");
       const { test: vitestTest, expect: vitestExpect } = require("vitest");
       test("missing method", () => { assert.partialDeepStrictEqual({ a: 1 }, { a: 2 }); });
       test("missing test.extend", () => { vitestTest.extend({}); });
       test("missing expect.poll", () => { vitestExpect.poll(() => 1); });
       test("missing require.cache", () => { expect(require.cache).toBeUndefined(); });
       test("unreachable", () => { vitestExpect.unreachable("should not get here"); });`,
      { language: "javascript" },
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "missing method")).toMatch(/^TypeError: not a function/);
    expect(failureOf(failed, "missing test.extend")).toMatch(/^TypeError: not a function/);
    expect(failureOf(failed, "missing expect.poll")).toMatch(/^TypeError: not a function/);
    expect(failureOf(failed, "missing require.cache")).toBeUndefined();
    expect(failureOf(failed, "unreachable")).toMatch(/^should not get here/);
  });

  it("keeps the real results when an ES module artifact is tampering", async () => {
    const outcome = await runSandbox(ARTIFACTS["replaces the global require with one that returns a fake assert"]!, FAILING_ESM_TESTS, { language: "javascript" });
    expect(expectStatus(outcome, "failed").tests.map((test) => test.passed)).toEqual([false, false, false]);
  });

  it("resolves every relative specifier to the artifact, and nothing else", async () => {
    const outcome = await runSandbox(
      "module.exports = { id: 'artifact' };",
      `const specifiers = ['./solution', './index.js', '../src/lru-cache', '.', '..', './a/b/c.mjs', '../../x'];
       test('relative', () => { for (const s of specifiers) expect(require(s)).toBe(require('./solution')); });
       test('not relative', () => {
         for (const s of ['solution', '/etc/passwd', 'file:///etc/passwd', '.hidden', '...', 'C:\\\\x', '~/x', 'https://example.com/x.js']) {
           expect(() => require(s)).toThrow('is not available in the sandbox');
         }
       });`,
      { language: "javascript" },
    );
    expectStatus(outcome, "passed");
  });
});

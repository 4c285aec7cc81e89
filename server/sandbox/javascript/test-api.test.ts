import { describe, expect, it } from "vitest";
import { expectStatus, failureOf, runSandbox } from "./test-helpers";

const js = { language: "javascript" } as const;

describe("test API: hooks", () => {
  it("runs beforeAll/beforeEach/afterEach/afterAll in order, per describe block", async () => {
    const outcome = await runSandbox(
      "export const log: string[] = [];",
      `beforeAll(() => { log.push("all:root"); });
       beforeEach(() => { log.push("each:root"); });
       afterEach(() => { log.push("after:root"); });
       describe("outer", () => {
         beforeAll(async () => { await new Promise((r) => setTimeout(r, 10)); log.push("all:outer"); });
         beforeEach(() => { log.push("each:outer"); });
         afterAll(() => { log.push("afterAll:outer"); });
         test("one", () => { log.push("one"); });
         test("two", () => { log.push("two"); });
       });
       test("check", () => {
         expect(log).toEqual(["all:root", "all:outer", "each:root", "each:outer", "one", "after:root", "each:root", "each:outer", "two", "after:root", "afterAll:outer", "each:root"]);
       });`,
    );
    expect(expectStatus(outcome, "passed").tests.map((test) => test.name)).toEqual(["outer > one", "outer > two", "check"]);
  });

  it("fails the tests of a block whose beforeAll failed, and says which hook", async () => {
    const outcome = await runSandbox(
      "",
      `describe("db", () => {
         beforeAll(() => { throw new Error("no connection"); });
         test("a", () => {});
         test("b", () => {});
       });
       test("outside", () => {});`,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "db > a")).toMatch(/^beforeAll hook failed: Error: no connection/);
    expect(failureOf(failed, "db > b")).toMatch(/^beforeAll hook failed/);
    expect(failureOf(failed, "outside")).toBeUndefined();
  });

  it("fails a test whose afterEach fails, and still runs afterEach when the test failed", async () => {
    const outcome = await runSandbox(
      "export let cleaned = 0;",
      `afterEach(() => { cleaned++; if (cleaned === 2) throw new Error("cleanup broke"); });
       test("fails", () => { expect(1).toBe(2); });
       test("cleanup fails", () => {});
       test("counts", () => { expect(cleaned).toBe(2); });`,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "fails")).toMatch(/^expected 1 to be 2/);
    expect(failureOf(failed, "cleanup fails")).toMatch(/^afterEach hook failed: Error: cleanup broke/);
    expect(failureOf(failed, "counts")).toBeUndefined();
  });

  it("refuses hooks and tests registered while the tests run", async () => {
    const outcome = await runSandbox("", `test("late", () => { beforeEach(() => {}); });\ntest("nested", () => { test("x", () => {}); });`);
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "late")).toMatch(/beforeEach\(\) must be called at the top level/);
    expect(failureOf(failed, "nested")).toMatch(/test\(\) must be called at the top level .*t\.test\(\)/);
  });
});

describe("test API: selection and tables", () => {
  it("honours skip, todo and only (tests and describe blocks)", async () => {
    const outcome = await runSandbox(
      "",
      `test("not only", () => { throw new Error("ran"); });
       test.only("only test", () => {});
       describe.only("only block", () => { test("inside", () => {}); test.skip("skipped inside", () => { throw new Error("ran"); }); });
       describe.skip("skipped block", () => { test.only("only but skipped", () => { throw new Error("ran"); }); });
       test.todo("later");
       xit("x'd", () => { throw new Error("ran"); });`,
    );
    expect(expectStatus(outcome, "passed").tests.map((test) => test.name)).toEqual(["only test", "only block > inside"]);
  });

  it("names each row of .each with printf placeholders, $name, and %#", async () => {
    const outcome = await runSandbox(
      "",
      `test.each([[1, "a", { x: 1 }], [2, "b", null]])("row %# has %i, %s and %p", () => {});
       it.each([{ name: "ada", age: 36 }])("$name is $age", ({ name }) => { expect(name).toBe("ada"); });
       describe.each([["x"], ["y"]])("block %s", (letter) => { test("has " + letter, () => {}); });`,
    );
    expect(expectStatus(outcome, "passed").tests.map((test) => test.name)).toEqual([
      'row 0 has 1, a and { x: 1 }', "row 1 has 2, b and null", '"ada" is 36', "block x > has x", "block y > has y",
    ]);
  });
});

describe("test API: bounds", () => {
  it("refuses more than 10,000 tests while collecting, with a message naming the cause", async () => {
    const outcome = await runSandbox("", `test.each(Array.from({ length: 10_001 }, (_, i) => [i]))("row %i", () => {});`);
    expect(expectStatus(outcome, "error").message).toMatch(/^Error: too many tests \(more than 10000\)/);
  });
});

describe("test API: async styles", () => {
  it("supports done callbacks, failing with the error passed to done", async () => {
    const outcome = await runSandbox(
      "",
      `test("done later", (done) => { setTimeout(done, 10); });
       test("done with error", (done) => { setTimeout(() => done(new Error("callback failed")), 10); });
       test("done.fail", (done) => { done.fail("nope"); });
       test("never calls done", (done) => {});
       test("next", () => {});`,
      js,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "done later")).toBeUndefined();
    expect(failureOf(failed, "done with error")).toMatch(/^Error: callback failed/);
    expect(failureOf(failed, "done.fail")).toMatch(/^Error: nope/);
    expect(failureOf(failed, "never calls done")).toMatch(/done callback that was never called/);
    expect(failureOf(failed, "next")).toBeUndefined();
  });

  it("gives vitest's test context its expect", async () => {
    const outcome = await runSandbox(
      "",
      `import { test } from "vitest";
       test("context", async ({ expect }) => { expect(1).toBe(2); });
       test("sync with context", ({ expect }) => { expect(1).toBe(1); });`,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "context")).toMatch(/^expected 1 to be 2/);
    expect(failureOf(failed, "sync with context")).toBeUndefined();
  });

  it("node:test: context, subtests (a failing subtest fails its parent), options, and done as the second parameter", async () => {
    const outcome = await runSandbox(
      "",
      `const { test, describe, it } = require("node:test");
       const assert = require("node:assert/strict");
       test("parent", async (t) => {
         assert.equal(t.name, "parent");
         await t.test("good", () => {});
         await t.test("bad", () => { assert.equal(1, 2); });
       });
       test("skipped by option", { skip: "not today" }, () => { throw new Error("ran"); });
       test("callback", (t, done) => { setTimeout(done, 5); });
       describe("suite", () => { it("works", () => {}); });
       test(function namedByFunction() {});`,
      js,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failed.tests.map((test) => [test.name, test.passed])).toEqual([
      ["parent", false], ["callback", true], ["suite > works", true], ["namedByFunction", true], ["parent > good", true], ["parent > bad", false],
    ]);
    expect(failureOf(failed, "parent")).toBe('subtest "parent > bad" failed');
  });

  it("says what is not available: node:test's mock, fake timers, module mocking", async () => {
    const outcome = await runSandbox(
      "",
      `const { mock, test } = require("node:test");
       test("node mock", () => { mock.fn(); });
       test("fake timers", () => { require("vitest").vi.useFakeTimers(); });
       test("module mocking", () => { jest.mock("./solution"); });`,
      js,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "node mock")).toMatch(/^Error: mock\.fn \(node:test\) is not available in the sandbox/);
    expect(failureOf(failed, "fake timers")).toMatch(/^Error: vi\.useFakeTimers is not available in the sandbox: the sandbox's timers are already virtual/);
    expect(failureOf(failed, "module mocking")).toMatch(/^Error: jest\.mock \(module mocking\) is not available in the sandbox/);
  });
});

describe("test API: matchers", () => {
  it("counts assertions for expect.assertions and expect.hasAssertions", async () => {
    const outcome = await runSandbox(
      "",
      `test("too few", () => { expect.assertions(2); expect(1).toBe(1); });
       test("none", () => { expect.hasAssertions(); });
       test("right", () => { expect.assertions(1); expect(1).not.toBe(2); });`,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "too few")).toBe("expected 2 assertions to be called, but 1 were");
    expect(failureOf(failed, "none")).toMatch(/expect\.hasAssertions/);
    expect(failureOf(failed, "right")).toBeUndefined();
  });

  it("supports asymmetric matchers, toMatchObject and mock matchers, failing when they do not match", async () => {
    const outcome = await runSandbox(
      "",
      `test("match", () => {
         expect({ id: 7, name: "ada", tags: ["a", "b"], at: new Date(0) }).toEqual({ id: expect.any(Number), name: expect.stringMatching(/^a/), tags: expect.arrayContaining(["b"]), at: expect.anything() });
         expect({ a: { b: 1, c: 2 }, d: [{ e: 1, f: 2 }] }).toMatchObject({ a: { b: 1 }, d: [{ e: 1 }] });
         const fn = vi.fn((x) => x * 2);
         fn(2);
         expect(fn).toHaveBeenCalledWith(2);
         expect(fn).toHaveReturnedWith(4);
         expect(fn).toHaveBeenLastCalledWith(expect.any(Number));
       });
       test("any mismatch", () => { expect({ id: "7" }).toEqual({ id: expect.any(Number) }); });
       test("object mismatch", () => { expect({ a: { b: 2 } }).toMatchObject({ a: { b: 1 } }); });
       test("mock mismatch", () => { const fn = jest.fn(); fn(1); expect(fn).toHaveBeenCalledWith(2); });`,
      js,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failureOf(failed, "match")).toBeUndefined();
    expect(failureOf(failed, "any mismatch")).toMatch(/^expected \{ id: "7" \} to equal/);
    expect(failureOf(failed, "object mismatch")).toMatch(/^expected \{ a: \{ b: 2 \} \} to match object/);
    expect(failureOf(failed, "mock mismatch")).toMatch(/^expected jest\.fn\(\) to have been called with \[2\], but it was called 1 times \(with \[1\]\)/);
  });

  it("gives node's assert its legacy and strict flavours", async () => {
    const outcome = await runSandbox(
      "",
      `const assert = require("assert");
       test("legacy equal is loose", () => { assert.equal(1, "1"); assert.deepEqual({ a: 1 }, { a: 1 }); });
       test("strict equal is strict", () => { assert.strict.equal(1, "1"); });
       test("node:assert/strict", () => { require("node:assert/strict").deepEqual([1], ["1"]); });
       test("rejects and doesNotThrow", async () => {
         await assert.rejects(Promise.reject(new TypeError("x")), TypeError);
         assert.doesNotThrow(() => 1);
         assert.match("abc", /b/);
         assert(true);
       });
       test("fail", () => { assert.fail("told to fail"); });`,
      js,
    );
    const failed = expectStatus(outcome, "failed");
    expect(failed.tests.map((test) => test.passed)).toEqual([true, false, false, true, false]);
    expect(failureOf(failed, "fail")).toMatch(/^told to fail/);
  });
});

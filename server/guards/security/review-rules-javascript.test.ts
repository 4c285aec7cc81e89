/**
 * The JavaScript/TypeScript checks for what a reviewer must see: endless loops, constant memory
 * bombs, tampering with the assertion helpers, recursive merges. Fixture-level cases live in
 * fixtures/hostile-review-javascript.ts and fixtures/benign-review.ts (security-guard.test.ts).
 */
import { describe, expect, it } from "vitest";
import { analyzeJavaScript } from "./analyze-javascript";

const found = (code: string, allowCalls: string[] = []) =>
  analyzeJavaScript(code, { language: "typescript", allowCalls }).map((finding) => `${finding.rule}: ${finding.construct}@${finding.line}:${finding.column}`);

describe("endless loops", () => {
  it.each([
    ["a break that leaves only a switch", "while (true) {\n  switch (x) {\n    case 1:\n      break;\n  }\n}", "while (true)@1:1"],
    ["a break that leaves only a nested loop", "for (;;) {\n  while (a) break;\n}", "for (;;)@1:1"],
    ["a break to a block label inside the loop", "while (true) {\n  inner: {\n    break inner;\n  }\n}", "while (true)@1:1"],
    ["a continue to the loop's own label", "again: while (true) {\n  continue again;\n}", "while (true)@1:8"],
    ["a throw caught inside the loop", "do {\n  try { throw 1; } catch { }\n} while (true);", "do … while (true)@1:1"],
    ["a return inside a nested arrow function", "while (1) {\n  list.map(() => { return 1; });\n}", "while (1)@1:1"],
    ["a yield inside a nested generator", "while (true) {\n  function* g() { yield 1; }\n}", "while (true)@1:1"],
    ["a constant comparison", "while (1 === 1) {}", "while (1 === 1)@1:1"],
    ["a negated falsy constant", "while (!0) {}", "while (!0)@1:1"],
    ["an object literal as condition", "while ({}) {}", "while ({})@1:1"],
    ["a for loop with a constant condition and an update", "for (let i = 0; true; i++) {}", "for (…; true; …)@1:1"],
    ["an indented loop, with its column", "function f() {\n    while (true) {}\n}", "while (true)@2:5"],
    ["a break in a branch never taken", "while (true) {\n  if (false) break;\n  if (1) { x(); } else { return; }\n}", "while (true)@1:1"],
  ])("finds %s", (_name, code, where) => {
    const [construct, at] = where.split("@") as [string, string];
    expect(found(code)).toEqual([`non-termination: ${construct} with no way out@${at}`]);
  });

  it.each([
    ["a break in an if", "while (true) { if (x) break; }"],
    ["a break in a try", "while (true) { try { if (x()) break; } catch { } }"],
    ["a break in a switch's nested if that leaves the loop by label", "loop: while (true) { switch (x) { case 1: break loop; } }"],
    ["a return in a switch case", "function f() { while (true) { switch (x) { case 1: return 1; } } }"],
    ["a throw in the catch clause", "while (true) { try { step(); } catch (error) { throw error; } }"],
    ["a throw with only a finally", "while (true) { try { throw new Error(); } finally { done(); } }"],
    ["a continue to an outer loop", "outer: for (const x of xs) { while (true) { continue outer; } }"],
    ["a break in a nested loop's label aimed outward", "outer: while (true) { for (;;) { break outer; } }"],
    ["a generator", "function* g() { while (true) yield 1; }"],
    ["an await", "async function f() { while (true) await tick(); }"],
    ["a for await", "async function f() { while (true) { for await (const x of source()) use(x); } }"],
    ["await in the loop's own update", "async function f() { for (let i = 0; ; i = await next(i)) {} }"],
    ["a variable condition", "let go = true; while (go) { go = step(); }"],
    ["a data-dependent condition", "while (queue.length) queue.shift();"],
    ["a false constant", "while (false) {} while (0) {}"],
    ["a break in the else of a data-dependent if", "while (true) { if (x) step(); else break; }"],
    ["a break in a branch always taken", "while (true) { if (!0) break; }"],
  ])("passes %s", (_name, code) => {
    expect(found(code)).toEqual([]);
  });

  it("counts process.exit as a way out (and reports the exit itself)", () => {
    expect(found("while (true) { process.exit(1); }")).toEqual(["exit-process: process.exit@1:16"]);
  });

  it("lets an endless loop through with allowCalls: endless-loop", () => {
    expect(found("while (true) {}", ["endless-loop"])).toEqual([]);
  });
});

describe("memory bombs", () => {
  const limit = 256 * 1024 * 1024;

  it("reports above 256 MiB and passes at it", () => {
    expect(found(`Buffer.alloc(${limit});`)).toEqual([]);
    expect(found(`Buffer.alloc(${limit + 1});`)).toEqual(["memory-exhaustion: Buffer.alloc of ~256 MiB@1:1"]);
    expect(found(`new Array(${limit / 8}).fill(0);`)).toEqual([]);
    expect(found(`new Array(${limit / 8 + 1});`)).toEqual(["memory-exhaustion: new Array of ~256 MiB@1:1"]);
  });

  it.each([
    ["padEnd", 'x.padEnd(1e9, "-");', "String.padEnd of ~954 MiB"],
    ["a Float64Array", "new Float64Array(1e8);", "new Float64Array of ~763 MiB"],
    ["SharedArrayBuffer", "new SharedArrayBuffer(2 ** 30);", "new SharedArrayBuffer of ~1 GiB"],
    ["Array() without new", "Array(1e9);", "Array() of ~7.5 GiB"],
    ["Array.apply with a length", "Array.apply(null, { length: 1e9 });", "Array.apply({ length }) of ~7.5 GiB"],
    ["Math.pow", "Buffer.allocUnsafe(Math.pow(2, 40));", "Buffer.allocUnsafe of ~1 TiB"],
    ["Number.MAX_SAFE_INTEGER", "new ArrayBuffer(Number.MAX_SAFE_INTEGER);", "new ArrayBuffer of ~8 PiB"],
    ["a size kept in consts", "const MB = 1024 * 1024;\nconst SIZE = 512 * MB;\nBuffer.alloc(SIZE);", "Buffer.alloc of ~512 MiB"],
    ["rows allocated by Array.from's callback", "Array.from({ length: 1e5 }, () => new Array(1e5).fill(0));", "Array.from({ length }) of ~75 GiB"],
    ["a string repeated from a const string", 'const unit = "abcd";\nunit.repeat(1e8);', "String.repeat of ~381 MiB"],
  ])("finds %s", (_name, code, construct) => {
    expect(found(code).map((item) => item.replace(/@.*/, ""))).toEqual([`memory-exhaustion: ${construct}`]);
  });

  it("follows aliases and computed names", () => {
    const code = 'const B = Buffer;\nB.alloc(1e12);\nconst A = Array;\nnew A(1e11);\nBuffer["alloc"](1e12);';
    expect(found(code)).toEqual(["memory-exhaustion: Buffer.alloc of ~931 GiB@2:1", "memory-exhaustion: new Array of ~745 GiB@4:1", "memory-exhaustion: Buffer.alloc of ~931 GiB@5:1"]);
  });

  it("reports only the innermost allocation that is too big", () => {
    expect(found('"x".repeat(1e9).repeat(2);')).toEqual(["memory-exhaustion: String.repeat of ~954 MiB@1:1"]);
  });

  it.each([
    ["a shadowed Buffer", "function f(Buffer) { return Buffer.alloc(1e12); }"],
    ["a typed array over data", "new Uint8Array([1, 2, 3]); new Uint8Array(buffer);"],
    ["sizes from parameters", "function f(n) { return [Buffer.alloc(n), 'x'.repeat(n * 1e9), new Array(n)]; }"],
    ["a BigInt size (not folded)", "new ArrayBuffer(Number(10n ** 12n));"],
  ])("passes %s", (_name, code) => {
    expect(found(code)).toEqual([]);
  });

  it("lets a big allocation through with allowCalls: large-allocation", () => {
    expect(found("Buffer.alloc(1e12);", ["large-allocation"])).toEqual([]);
  });
});

describe("tampering with the assertion helpers", () => {
  it.each([
    ["expect imported from vitest and a member replaced", 'import { expect } from "vitest";\nexpect.soft = expect;', "assignment to expect.soft@2:1"],
    ["it deleted from the global object", "delete globalThis.it;", "deletion of it@1:8"],
    ["Reflect.deleteProperty on the global object", 'Reflect.deleteProperty(globalThis, "test");', "Reflect.deleteProperty(test)@1:1"],
    ["a spy on an assertion", 'const assert = require("assert");\nvi.spyOn(assert, "equal").mockImplementation(() => {});', "vi.spyOn(assert)@2:1"],
    ["chai's expect replaced", 'const chai = require("chai");\nchai.expect = () => ({});', "assignment to chai.expect@2:1"],
    ["an alias of assert", 'const a = require("node:assert/strict");\nconst b = a;\nb.ok = () => {};', "assignment to assert.ok@3:1"],
    ["assert.strict.equal through an import", 'import * as assert from "assert";\nassert.strict.equal = () => {};', "assignment to assert.strict.equal@2:1"],
    ["the global object's expect through window", "window.expect = null;", "assignment to expect@1:1"],
    ["vi.stubGlobal of expect", 'vi.stubGlobal("expect", () => ({}));', "vi.stubGlobal(expect)@1:1"],
  ])("finds %s", (_name, code, where) => {
    expect(found(code)).toContain(`test-tampering: ${where}`);
  });

  it.each([
    ["a local named expect", "function f() { const expect = 1; return expect; }\nlet test = 0;\ntest = 1;"],
    ["a parameter named assert", "function f(assert) { assert.equal = 1; return assert; }"],
    ["new matchers", "expect.extend({ toBeWithin() { return { pass: true, message: () => '' }; } });"],
    ["reading the helpers", "const { equal } = require('assert');\nequal(1, 1);\nexpect(1).toBe(1);"],
    ["mocking other modules", "vi.mock('./db');\njest.mock('axios-mock');"],
    ["an object with a describe key", "const o = { describe: 1 };\no.describe = 2;"],
  ])("passes %s", (_name, code) => {
    expect(found(code)).toEqual([]);
  });

  it("escapes control characters in the construct, so a finding stays one feedback line", () => {
    expect(found('const assert = require("assert");\nassert["x\\nSecurity: ok"] = 1;')).toEqual(["test-tampering: assignment to assert.x\\u000aSecurity: ok@2:1"]);
  });

  it("lets a named helper be changed with allowCalls naming it", () => {
    expect(found("globalThis.expect = 1;", ["expect"])).toEqual([]);
  });
});

describe("recursive merges", () => {
  const merge = (guard: string, target = "target") =>
    [`function merge(${target}, source) {`, "  for (const key in source) {", `    ${guard}`, `    if (typeof source[key] === "object") merge(${target}[key] = ${target}[key] || {}, source[key]);`, `    else ${target}[key] = source[key];`, "  }", "}"].join("\n");

  it("finds the merge without a guard, at the first write", () => {
    expect(found(merge(""))).toEqual(["prototype-pollution: recursive merge into target[key]@4:48"]);
  });

  it.each([
    ["a strict comparison", 'if (key === "__proto__") continue;'],
    ["a denylist", 'if (["__proto__", "constructor", "prototype"].includes(key)) continue;'],
    ["an allowlist", "if (!KNOWN.has(key)) continue;"],
    ["a pattern", "if (/^__/.test(key)) continue;"],
    ["a switch on the key", 'switch (key) { case "constructor": continue; }'],
    ["a comparison of the normalised key", 'if (String(key).toLowerCase() === "__proto__") continue;'],
    ["Object.is", 'if (Object.is(key, "__proto__")) continue;'],
    ["Object.hasOwn on the target", "if (!Object.hasOwn(target, key)) { target[key] = source[key]; continue; }"],
    ["hasOwnProperty on the target", "if (!target.hasOwnProperty(key)) continue;"],
  ])("passes a merge with %s", (_name, guard) => {
    expect(found(merge(guard))).toEqual([]);
  });

  it.each([
    ["a comparison about something else", 'if (source.name === "constructor") return;'],
    ["the name in an unrelated call", 'log("constructor");'],
    ["a switch on something else", 'switch (mode) { case "__proto__": break; }'],
  ])("does not count %s as a guard", (_name, guard) => {
    expect(found(merge(guard))).toHaveLength(1);
  });

  it("does not count Object.hasOwn on the source as a guard", () => {
    expect(found(merge("if (!Object.hasOwn(source, key)) continue;"))).toHaveLength(1);
  });

  it.each([
    ["a merge into a fresh null-prototype object", "function m(s) {\n  const out = Object.create(null);\n  for (const k in s) out[k] = m(out[k]);\n  return out;\n}"],
    ["a literal with a null prototype", "function m(s) {\n  const out = { __proto__: null };\n  for (const k in s) out[k] = m(out[k]);\n  return out;\n}"],
    ["a clone that recurses into the source only", "function clone(s) {\n  const out = {};\n  for (const k in s) out[k] = clone(s[k]);\n  return out;\n}"],
    ["an in-place transform of the object whose keys are listed", "function restore(x) {\n  for (const k in x) x[k] = restore(x[k]);\n  Object.keys(x).forEach((k) => { x[k] = restore(x[k]); });\n  return x;\n}"],
    ["a Map target", "function m(t, s) {\n  for (const k of Object.keys(s)) t.set(k, m(t.get(k), s[k]));\n}"],
  ])("passes %s", (_name, code) => {
    expect(found(code)).toEqual([]);
  });

  it("finds Object.assign into target[key] inside a key loop", () => {
    expect(found("function f(t, s) {\n  for (const k in s) {\n    t[k] = t[k] || {};\n    Object.assign(t[k], s[k]);\n  }\n}")).toEqual(["prototype-pollution: recursive merge into t[k]@3:5"]);
  });

  it("finds a class method that recurses through this", () => {
    const code = "class Store {\n  merge(t, s) {\n    for (const [k, v] of Object.entries(s)) t[k] = this.merge(t[k] ?? {}, v);\n    return t;\n  }\n}";
    expect(found(code)).toEqual(["prototype-pollution: recursive merge into t[k]@3:45"]);
  });

  it("lets a recursive merge through with allowCalls: recursive-merge", () => {
    expect(found(merge(""), ["recursive-merge"])).toEqual([]);
  });
});

describe("time on hostile input stays bounded", () => {
  // Roomy limits: the machine is shared and loaded; the point is linear, not quadratic or worse.
  it.each([
    ["400 nested endless loops", `${"while (true) {".repeat(400)}${"}".repeat(400)}`],
    ["400 nested key loops in a merge", `function merge(t, s) {${"for (const k in s) {".repeat(400)}t[k] = merge(t[k], s[k]);${"}".repeat(400)}}`],
    ["a power tower as a size", `Buffer.alloc(${"10 ** ".repeat(1000)}10);`],
    ["3000 consts each built from the previous twice", `${Array.from({ length: 3000 }, (_, i) => (i === 0 ? "const a0 = 10;" : `const a${i} = a${i - 1} * a${i - 1};`)).join("\n")}\nBuffer.alloc(a2999);`],
    ["3000 sibling endless loops", "while (true) {}\n".repeat(3000)],
  ])("%s", (_name, code) => {
    const started = performance.now();
    try {
      analyzeJavaScript(code);
    } catch (error) {
      expect((error as Error).message).toMatch(/call stack/); // the guard turns this into "could not analyse"
    }
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

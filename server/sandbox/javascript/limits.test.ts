import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_LIMITS } from "../types";
import { createOutputBuffer } from "./output-buffer";
import { expectStatus, runSandbox } from "./test-helpers";
import { runInWorker } from "./worker-pool";

const WALL_CLOCK_MS = 1_000;
/** A runaway run must be over within its wall clock plus about a second. */
const RETURNS_WITHIN_MS = WALL_CLOCK_MS + 1_000;
/**
 * For tests of another limit (memory, stack, timers): on a loaded machine a 1 s wall clock can
 * fire first and hide the limit under test.
 */
const ROOMY = { wallClockMs: 10_000 };

async function limitOf(artifact: string, tests: string, limits = {}) {
  const outcome = await runSandbox(artifact, tests, { limits: { wallClockMs: WALL_CLOCK_MS, ...limits } });
  return expectStatus(outcome, "limit");
}

describe("sandbox limits", () => {
  // Loads the TypeScript compiler once, so the timings below measure runs, not that.
  beforeAll(() => runSandbox("", ""));

  it("stops an endless loop at the wall clock", async () => {
    const outcome = await limitOf("while (true) {}", "test('t', () => {});");
    expect(outcome.limit).toBe("wall_clock");
    expect(outcome.message).toMatch(/wall-clock limit of 1000 ms while loading the artifact/);
    expect(outcome.durationMs).toBeLessThan(RETURNS_WITHIN_MS);
  });

  it("stops an endless loop inside a test, and a try/catch cannot swallow the interrupt", async () => {
    const outcome = await limitOf("", "test('spins', () => { for (;;) { try { while (true) {} } catch {} } });");
    expect(outcome).toMatchObject({ limit: "wall_clock", message: expect.stringMatching(/in test "spins"/) });
    expect(outcome.durationMs).toBeLessThan(RETURNS_WITHIN_MS);
  });

  it("stops an async endless loop and an endless promise chain at the wall clock", async () => {
    const asyncLoop = await limitOf("", "test('loops', async () => { while (true) await null; });");
    expect(asyncLoop.limit).toBe("wall_clock");
    expect(asyncLoop.durationMs).toBeLessThan(RETURNS_WITHIN_MS);
    const chain = await limitOf("function again() { Promise.resolve().then(again); }\nagain();", "test('t', () => {});");
    expect(chain.limit).toBe("wall_clock");
    expect(chain.durationMs).toBeLessThan(RETURNS_WITHIN_MS);
  });

  it("stops an array memory bomb", async () => {
    const outcome = await limitOf("let a: number[][] = []; while (true) a.push(new Array(1e6).fill(1));", "test('t', () => {});", ROOMY);
    expect(outcome).toMatchObject({ limit: "memory", message: expect.stringMatching(/out of memory \(limit 64 MB\).*artifact\.ts:1/) });
  });

  it("stops a string-doubling memory bomb", async () => {
    const outcome = await limitOf("let s = 'x'; while (true) s += s;", "test('t', () => {});", ROOMY);
    expect(outcome.limit).toBe("memory");
    const flattened = await limitOf("", "test('t', () => { let s = 'x'; for (let i = 0; i < 40; i++) { s += s; s.charCodeAt(s.length - 1); } });", ROOMY);
    expect(flattened).toMatchObject({ limit: "memory", message: expect.stringMatching(/in test "t"/) });
  });

  it("honours a smaller memory limit from the request", async () => {
    const allocate20Mb = "test('t', () => { const a = new Array(2.5e6).fill(1.5); expect(a.length).toBe(2.5e6); });";
    expectStatus(await runSandbox("", allocate20Mb), "passed");
    const outcome = await limitOf("", allocate20Mb, { ...ROOMY, memoryMb: 8 });
    expect(outcome).toMatchObject({ limit: "memory", message: expect.stringMatching(/limit 8 MB/) });
  });

  it("stops deep recursion with a stack limit, in the artifact or in a test", async () => {
    const topLevel = await limitOf("function f(): number { return f() + 1; }\nf();", "", ROOMY);
    expect(topLevel).toMatchObject({ limit: "stack", message: expect.stringMatching(/maximum call stack.*artifact\.ts:1/) });
    const inTest = await limitOf("export function f(n: number): number { return f(n + 1) + 1; }", "test('recurses', () => { f(0); });", ROOMY);
    expect(inTest).toMatchObject({ limit: "stack", message: expect.stringMatching(/in test "recurses"/) });
  });

  it("stops recursion through native code too, and leaves the host healthy", async () => {
    const recursions = [
      "const o = {}; o.toString = function () { return String(this); }; String(o);",
      "JSON.parse('['.repeat(1e5) + ']'.repeat(1e5));",
      "let a: unknown[] = []; for (let i = 0; i < 1e5; i++) a = [a]; JSON.stringify(a);",
      "const p: any = new Proxy({}, { get: (_t, k) => p[k] }); p.x;",
      "const o = { get x(): number { return this.x; } }; o.x;",
      "function e(n: number): unknown { return eval('e(n + 1)'); } e(0);",
    ];
    for (const artifact of recursions) expect(await limitOf(artifact, "", ROOMY)).toMatchObject({ limit: "stack" });
    const redos = await limitOf("/(a*)*b/.exec('a'.repeat(40));", "");
    expect(redos.limit).toBe("wall_clock");
  });

  it("stops an output flood and keeps the output up to the limit", async () => {
    const outcome = await limitOf("while (true) console.log('x'.repeat(1000));", "", { outputBytes: 10_000 });
    expect(outcome.limit).toBe("output");
    expect(outcome.message).toMatch(/limit of 10000 bytes/);
    expect(outcome.output.length).toBe(10_000);
  });

  it("reports a timer that would fire after the tests end", async () => {
    const outcome = await limitOf("", "test('leaves a timer', () => {\n  setTimeout(() => {}, 1000);\n});");
    expect(outcome).toMatchObject({ limit: "timers", message: expect.stringMatching(/setTimeout\(…, 1000\) at tests\.ts:2:\d+ was still pending when the tests ended/) });
    const cleared = await runSandbox("", "test('clears', () => { const id = setTimeout(() => {}, 1000); clearTimeout(id); });");
    expectStatus(cleared, "passed");
  });

  it("limits the number of pending timers and refuses setInterval", async () => {
    const flood = await limitOf("", "test('t', () => { for (let i = 0; i < 20000; i++) setTimeout(() => {}, 1); });", ROOMY);
    expect(flood).toMatchObject({ limit: "timers", message: expect.stringMatching(/more than 10000 timers/) });
    const interval = await runSandbox("", "test('t', () => { setInterval(() => {}, 10); });");
    expect(expectStatus(interval, "failed").tests[0]?.message).toMatch(/setInterval is not available/);
  });

  it("kills a worker that does not stop when interrupted (the backstop)", async () => {
    const started = performance.now();
    // The interrupt deadline is far away, so only the hard kill can end this run.
    const outcome = await runInWorker(
      {
        artifact: { code: "while (true) {}", fileName: "artifact.js", exportsTrailer: false, topLevelAwait: false },
        tests: { code: "", fileName: "tests.js", exportsTrailer: false, topLevelAwait: false },
        limits: DEFAULT_SANDBOX_LIMITS,
        deadline: Date.now() + 60_000,
        output: createOutputBuffer(DEFAULT_SANDBOX_LIMITS.outputBytes),
      },
      500,
    );
    expect(outcome).toMatchObject({ status: "limit", limit: "wall_clock", message: expect.stringMatching(/worker was killed/) });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("keeps the host healthy: 20 ordinary runs after hostile ones all pass", async () => {
    await limitOf("while (true) {}", "");
    await limitOf("let a: number[][] = []; while (true) a.push(new Array(1e6).fill(1));", "");
    await limitOf("function f(): number { return f() + 1; }\nf();", "", ROOMY);
    for (let i = 0; i < 20; i++) {
      const outcome = await runSandbox(`export const square = (n: number) => n * n;`, `test('square ${i}', () => expect(square(${i})).toBe(${i * i}));`);
      expect(expectStatus(outcome, "passed").tests).toEqual([{ name: `square ${i}`, passed: true }]);
    }
  }, 30_000);
});

import { beforeAll, describe, expect, it } from "vitest";
import { expectStatus, runSandbox } from "./test-helpers";

describe("sandbox performance", () => {
  beforeAll(() => runSandbox("", ""));

  it("runs a trivial passing test in tens of milliseconds (warm worker pool)", async () => {
    const durations: number[] = [];
    for (let i = 0; i < 15; i++) {
      // Spaced out, as guard runs are: the pool has time to prepare the next worker.
      await new Promise((resolve) => setTimeout(resolve, 120));
      const outcome = await runSandbox("export function add(a: number, b: number) { return a + b; }", "test('adds', () => expect(add(1, 2)).toBe(3));");
      durations.push(expectStatus(outcome, "passed").durationMs);
    }
    const median = [...durations].sort((a, b) => a - b)[Math.floor(durations.length / 2)]!;
    console.info(`sandbox: median trivial run ${median} ms (runs: ${durations.join(", ")})`);
    expect(median).toBeLessThan(100);
  }, 30_000);
});

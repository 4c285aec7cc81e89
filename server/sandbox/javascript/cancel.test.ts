import { describe, expect, it } from "vitest";
import { runJavaScriptTests } from "./run-javascript-tests";

describe("javascript sandbox cancel", () => {
  it("stops a running sandbox when the run is cancelled, instead of letting it run to its wall clock", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const run = runJavaScriptTests(
      { language: "javascript", artifact: "for (;;) {}\n", tests: "test('never', () => {});\n", limits: { wallClockMs: 60_000, cpuMs: 60_000 } },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("cancelled")), 1_000);
    const outcome = await run;
    expect(outcome.status).toBe("incomplete");
    if (outcome.status === "incomplete") expect(outcome.message).toContain("cancelled");
    // Roomy: well under the 60 s wall clock, whatever the machine's load.
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 70_000);

  it("does not start a run that is already cancelled", async () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    const outcome = await runJavaScriptTests({ language: "javascript", artifact: "const x = 1;\n", tests: "test('t', () => {});\n" }, { signal: controller.signal });
    expect(outcome.status).toBe("incomplete");
  });
});

import { describe, expect, it } from "vitest";
import { runPythonTests } from "./run-python-tests";
import { sandboxProcessesWithCpuLimit } from "./test-support";
import { discardWarmSandboxes } from "./warm-pool";

// An unusual CPU limit marks this test's sandbox, so its processes can be found from outside.
const CPU_MS = 57_000;

describe("python sandbox cancel", () => {
  it("kills a running sandbox when the run is cancelled, instead of letting it run to its wall clock", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const run = runPythonTests(
      { language: "python", artifact: "while True:\n    pass\n", tests: "def test_ok():\n    assert True\n", limits: { wallClockMs: 60_000, cpuMs: CPU_MS } },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("cancelled")), 1_000);
    const outcome = await run;
    expect(outcome.status).not.toBe("passed");
    // Roomy: well under the 60 s wall clock, whatever the machine's load.
    expect(performance.now() - started).toBeLessThan(20_000);
    discardWarmSandboxes();
    for (let waited = 0; waited < 5_000 && sandboxProcessesWithCpuLimit(CPU_MS / 1000).length > 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sandboxProcessesWithCpuLimit(CPU_MS / 1000)).toEqual([]);
  }, 60_000);
});

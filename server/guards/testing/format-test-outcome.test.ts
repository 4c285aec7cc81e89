import { describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_LIMITS } from "../../sandbox/types";
import { CONFIGURATION_ERROR, formatTestOutcome } from "./format-test-outcome";

describe("formatTestOutcome", () => {
  it("names each passing test, the first 20 of them", () => {
    const tests = Array.from({ length: 22 }, (_, index) => ({ name: `test_${index}`, passed: true }));
    const result = formatTestOutcome({ status: "passed", tests, output: "", durationMs: 1 }, DEFAULT_SANDBOX_LIMITS);
    expect(result.feedback).toBe(`22 tests passed: ${tests.slice(0, 20).map((test) => test.name).join(", ")}, and 2 more`);
    expect(formatTestOutcome({ status: "passed", tests: [{ name: "Suite.test_x", passed: true }], output: "", durationMs: 1 }, DEFAULT_SANDBOX_LIMITS).feedback).toBe("1 test passed: Suite.test_x");
  });

  it("makes an unavailable sandbox a fatal configuration error with the reason, never retryable feedback", () => {
    const result = formatTestOutcome({ status: "unavailable", message: "bubblewrap (bwrap) is not installed; install it with: apt-get install bubblewrap", durationMs: 1 }, DEFAULT_SANDBOX_LIMITS);
    expect(result).toMatchObject({ passed: false, fatal: true });
    expect(result.feedback.startsWith(CONFIGURATION_ERROR)).toBe(true);
    expect(result.feedback).toContain("apt-get install bubblewrap");
  });

  it("makes a limit hit a retryable failure that names the limit", () => {
    const result = formatTestOutcome({ status: "limit", limit: "memory", message: "the code needed more", output: "", durationMs: 1 }, { ...DEFAULT_SANDBOX_LIMITS, memoryMb: 32 });
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toContain("memory limit (32 MB)");
  });
});

describe("a test guard whose sandbox is unavailable", () => {
  it("stops at once with a fatal configuration error (here: an interpreter that does not exist)", async () => {
    const { createTestGuard } = await import("./test-guard");
    const { createArtifact } = await import("../../engine");
    const guard = createTestGuard("def test_x():\n    pass\n", { language: "python", pythonExecutable: "/nonexistent/bin/python3" });
    const result = await guard.validate(createArtifact({ id: "a", content: "x = 1\n", version: 1, parentId: null }), {});
    expect(result).toMatchObject({ passed: false, fatal: true });
    expect(result.feedback).toContain("python3 is not installed");
  });
});

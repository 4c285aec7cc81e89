import { describe, expect, it } from "vitest";
import { GuardUnavailableError } from "../../engine";
import { DEFAULT_SANDBOX_LIMITS } from "../../sandbox/types";
import { CONFIGURATION_ERROR, formatTestOutcome } from "./format-test-outcome";

describe("formatTestOutcome", () => {
  it("names each passing test, the first 20 of them", () => {
    const tests = Array.from({ length: 22 }, (_, index) => ({ name: `test_${index}`, passed: true }));
    const result = formatTestOutcome({ status: "passed", tests, output: "", durationMs: 1 }, DEFAULT_SANDBOX_LIMITS);
    expect(result.feedback).toBe(`22 tests passed: ${tests.slice(0, 20).map((test) => test.name).join(", ")}, and 2 more`);
    expect(formatTestOutcome({ status: "passed", tests: [{ name: "Suite.test_x", passed: true }], output: "", durationMs: 1 }, DEFAULT_SANDBOX_LIMITS).feedback).toBe("1 test passed: Suite.test_x");
  });

  it("makes an unavailable sandbox a configuration error that stops the step, never a verdict or retryable feedback", () => {
    const format = () => formatTestOutcome({ status: "unavailable", message: "bubblewrap (bwrap) is not installed; install it with: apt-get install bubblewrap", durationMs: 1 }, DEFAULT_SANDBOX_LIMITS);
    expect(format).toThrow(GuardUnavailableError);
    expect(format).toThrow(CONFIGURATION_ERROR);
    expect(format).toThrow("apt-get install bubblewrap");
  });

  it("makes a limit hit a retryable failure that names the limit", () => {
    const result = formatTestOutcome({ status: "limit", limit: "memory", message: "the code needed more", output: "", durationMs: 1 }, { ...DEFAULT_SANDBOX_LIMITS, memoryMb: 32 });
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toContain("memory limit (32 MB)");
  });
});

describe("a test guard whose sandbox is unavailable", () => {
  it("stops at once with a configuration error (here: an interpreter that does not exist), through the guard library too", async () => {
    const { createTestGuard } = await import("./test-guard");
    const { createGuard } = await import("../registry");
    const { createArtifact, isEngineError } = await import("../../engine");
    const artifact = createArtifact({ id: "a", content: "x = 1\n", version: 1, parentId: null });
    const direct = createTestGuard("def test_x():\n    pass\n", { language: "python", pythonExecutable: "/nonexistent/bin/python3" });
    const error: unknown = await direct.validate(artifact, {}).then(() => null, (caught: unknown) => caught);
    expect(isEngineError(error, "GUARD_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain("python3 is not installed");
    // The library's time-limit wrapper turns other exceptions into failed verdicts, but not this one.
    const viaLibrary = createGuard({ kind: "test", language: "python", test: "def test_x():\n    pass\n" }, { pythonExecutable: "/nonexistent/bin/python3" });
    const libraryError: unknown = await viaLibrary.validate(artifact, {}).then(() => null, (caught: unknown) => caught);
    expect(isEngineError(libraryError, "GUARD_UNAVAILABLE")).toBe(true);
  });
});

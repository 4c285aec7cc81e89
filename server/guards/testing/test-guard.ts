import { failed, type Guard } from "../../engine";
import { runTests } from "../../sandbox/run-tests";
import { resolveLimits, type SandboxLimits } from "../../sandbox/types";
import type { LimitsSpec } from "../guard-spec";
import type { GuardLanguage } from "../language";
import { formatTestOutcome } from "./format-test-outcome";

export interface TestGuardOptions {
  readonly language: GuardLanguage;
  readonly limits?: LimitsSpec;
  readonly pythonExecutable?: string;
}

function toSandboxLimits(spec: LimitsSpec | undefined): SandboxLimits {
  return resolveLimits({
    wallClockMs: spec?.wall_clock_ms,
    cpuMs: spec?.cpu_ms,
    memoryMb: spec?.memory_mb,
    outputBytes: spec?.output_bytes,
  });
}

/**
 * 001 TestGuard: runs the artifact with test code in the sandbox. The `test` dependency artifact
 * wins over the static `test` option, as in 001.
 */
export function createTestGuard(staticTests: string | undefined, options: TestGuardOptions): Guard {
  const limits = toSandboxLimits(options.limits);
  return {
    async validate(artifact, dependencies, call) {
      const tests = dependencies.test?.content ?? staticTests;
      if (!tests) return failed("No test code provided (static or via dependency)");
      const outcome = await runTests({ language: options.language, artifact: artifact.content, tests, limits }, { pythonExecutable: options.pythonExecutable, signal: call?.signal });
      return formatTestOutcome(outcome, limits);
    },
  };
}

/** 001 TDDTestGuard: the tests must come from the `test` dependency (000 table 4). */
export function createTddGuard(options: TestGuardOptions): Guard {
  const limits = toSandboxLimits(options.limits);
  return {
    async validate(artifact, dependencies, call) {
      const testArtifact = dependencies.test;
      if (!testArtifact) return failed("TDD guard requires 'test' dependency");
      const outcome = await runTests(
        { language: options.language, artifact: artifact.content, tests: testArtifact.content, limits },
        { pythonExecutable: options.pythonExecutable, signal: call?.signal },
      );
      return formatTestOutcome(outcome, limits);
    },
  };
}

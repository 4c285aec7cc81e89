import { StepConfigurationError, type Guard } from "../../engine";
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

/** The validator reports both before a run (check-guard-config.ts); these cover documents that bypassed it. */
export const MISSING_TESTS = "the test guard has no tests: give it a `test` option, or a dependency named test (guard_artifact_deps: [g_test])";
export const MISSING_TDD_DEPENDENCY = "the tdd guard takes its tests from a dependency named test, and this step has none: add the test-writing step's guard id (g_test) to guard_artifact_deps";

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
      // No attempt could pass, and the model cannot supply the tests: a configuration error, not feedback.
      if (!tests) throw new StepConfigurationError(MISSING_TESTS);
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
      if (!testArtifact) throw new StepConfigurationError(MISSING_TDD_DEPENDENCY);
      const outcome = await runTests(
        { language: options.language, artifact: artifact.content, tests: testArtifact.content, limits },
        { pythonExecutable: options.pythonExecutable, signal: call?.signal },
      );
      return formatTestOutcome(outcome, limits);
    },
  };
}

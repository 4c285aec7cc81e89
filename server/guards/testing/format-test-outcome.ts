import { failed, GuardUnavailableError, passed, type GuardResult } from "../../engine";
import type { SandboxLimit, SandboxLimits, TestCaseResult, TestRunOutcome } from "../../sandbox/types";

const MAX_MESSAGE = 400;
const MAX_FAILURES = 8;
const MAX_OUTPUT_TAIL = 600;
const MAX_NAMES = 20;
const MAX_NAME = 80;

function trim(text: string, max: number): string {
  const clean = text.trim();
  return clean.length <= max ? clean : `${clean.slice(0, max)}… (${clean.length - max} more characters)`;
}

const LIMIT_NAMES: Record<SandboxLimit, (limits: SandboxLimits) => string> = {
  wall_clock: (l) => `wall-clock time limit (${l.wallClockMs} ms)`,
  cpu: (l) => `CPU time limit (${l.cpuMs} ms)`,
  memory: (l) => `memory limit (${l.memoryMb} MB)`,
  output: (l) => `output size limit (${l.outputBytes} bytes)`,
  stack: () => "stack depth limit",
  processes: () => "process limit (no new processes)",
  timers: () => "timer limit (a timer was still pending when the tests ended)",
  file_system: () => "file system limit",
  network: () => "network limit (no network access)",
};

function describeFailures(tests: readonly TestCaseResult[]): string {
  const failures = tests.filter((test) => !test.passed);
  const lines = failures.slice(0, MAX_FAILURES).map((test) => `- ${test.name}: ${trim(test.message ?? "failed", MAX_MESSAGE)}`);
  if (failures.length > MAX_FAILURES) lines.push(`- (and ${failures.length - MAX_FAILURES} more failing tests)`);
  return lines.join("\n");
}

/** ": test_a, Suite.test_b, ..." (the first few, each trimmed), or "" without tests. */
function namesOf(tests: readonly TestCaseResult[]): string {
  if (tests.length === 0) return "";
  const names = tests.slice(0, MAX_NAMES).map((test) => trim(test.name, MAX_NAME));
  return `: ${names.join(", ")}${tests.length > MAX_NAMES ? `, and ${tests.length - MAX_NAMES} more` : ""}`;
}

function outputTail(output: string): string {
  const clean = output.trim();
  if (!clean) return "";
  const tail = clean.length <= MAX_OUTPUT_TAIL ? clean : `…${clean.slice(-MAX_OUTPUT_TAIL)}`;
  return `\nOutput (end):\n${tail}`;
}

/** How a verdict that is about the server, not the artifact, begins. */
export const CONFIGURATION_ERROR = "Configuration error (not a problem with the artifact; retrying cannot fix it):";

/**
 * Turns a sandbox outcome into a verdict whose feedback a model can act on: which tests failed
 * and why, trimmed to a useful size, or which limit stopped the run.
 */
export function formatTestOutcome(outcome: TestRunOutcome, limits: SandboxLimits): GuardResult {
  switch (outcome.status) {
    case "passed":
      return passed(`${outcome.tests.length} test${outcome.tests.length === 1 ? "" : "s"} passed${namesOf(outcome.tests)}`);
    case "failed": {
      const failures = outcome.tests.filter((test) => !test.passed).length;
      return failed(`${failures} of ${outcome.tests.length} tests failed:\n${describeFailures(outcome.tests)}`);
    }
    case "error": {
      const before = outcome.tests.some((test) => !test.passed) ? `\n${describeFailures(outcome.tests)}` : "";
      return failed(`The code raised an error before the tests finished: ${trim(outcome.message, MAX_MESSAGE * 2)}${before}${outputTail(outcome.output)}`);
    }
    case "limit":
      return failed(`Sandbox ${LIMIT_NAMES[outcome.limit](limits)} was hit: ${trim(outcome.message, MAX_MESSAGE)}${outputTail(outcome.output)}`);
    case "incomplete":
      return failed(`The tests did not run to their end, so they do not count as passed: ${trim(outcome.message, MAX_MESSAGE)}${outputTail(outcome.output)}`);
    case "unavailable":
      // Not the artifact's fault, and no retry can fix it: the step fails at once with the reason
      // (no model call is spent on it, and no person is asked to approve a check that never ran).
      throw new GuardUnavailableError(`${CONFIGURATION_ERROR} the test sandbox cannot run here, so nothing was executed: ${outcome.message}`);
  }
}

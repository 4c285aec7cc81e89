import type { SandboxLanguage, SandboxLimits, TestRunOutcome } from "../types";
import { runJavaScriptTests } from "./run-javascript-tests";

/** Runs artifact + tests in the sandbox (TypeScript unless told otherwise). */
export function runSandbox(
  artifact: string,
  tests: string,
  options: { language?: SandboxLanguage; limits?: Partial<SandboxLimits> } = {},
): Promise<TestRunOutcome> {
  return runJavaScriptTests({ language: options.language ?? "typescript", artifact, tests, limits: options.limits });
}

/** The outcome, narrowed to `status`, or a test failure showing what came instead. */
export function expectStatus<S extends TestRunOutcome["status"]>(outcome: TestRunOutcome, status: S): Extract<TestRunOutcome, { status: S }> {
  if (outcome.status !== status) throw new Error(`expected status ${status}, got ${JSON.stringify(outcome, null, 2)}`);
  return outcome as Extract<TestRunOutcome, { status: S }>;
}

/** The message of a failed test by name. */
export function failureOf(outcome: TestRunOutcome, name: string): string | undefined {
  if (!("tests" in outcome)) throw new Error(`no tests in ${JSON.stringify(outcome)}`);
  const test = outcome.tests.find((candidate) => candidate.name === name);
  if (!test) throw new Error(`no test ${name} in ${JSON.stringify(outcome.tests)}`);
  return test.passed ? undefined : test.message;
}

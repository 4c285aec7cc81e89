import { runJavaScriptTests } from "./javascript/run-javascript-tests";
import { runPythonTests } from "./python/run-python-tests";
import type { TestRunOutcome, TestRunRequest } from "./types";

export interface RunTestsOptions {
  /** python3 by default. */
  readonly pythonExecutable?: string;
}

/** Runs generated code with its tests in the sandbox of its language. */
export function runTests(request: TestRunRequest, options: RunTestsOptions = {}): Promise<TestRunOutcome> {
  return request.language === "python" ? runPythonTests(request, { pythonExecutable: options.pythonExecutable }) : runJavaScriptTests(request);
}

import { abortable } from "../engine";
import { runJavaScriptTests } from "./javascript/run-javascript-tests";
import { runPythonTests } from "./python/run-python-tests";
import type { TestRunOutcome, TestRunRequest } from "./types";

export interface RunTestsOptions {
  /** python3 by default. */
  readonly pythonExecutable?: string;
  /**
   * Aborts the run (a cancelled run, a shutdown): the promise rejects with the signal's reason at
   * once. The run itself still ends at its wall-clock limit, where the sandbox kills it.
   */
  readonly signal?: AbortSignal;
}

/** Runs generated code with its tests in the sandbox of its language. */
export function runTests(request: TestRunRequest, options: RunTestsOptions = {}): Promise<TestRunOutcome> {
  const run = request.language === "python" ? runPythonTests(request, { pythonExecutable: options.pythonExecutable }) : runJavaScriptTests(request);
  return abortable(run, options.signal);
}

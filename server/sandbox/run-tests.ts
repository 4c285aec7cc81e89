import { abortable } from "../engine";
import { prewarmSandboxWorkers } from "./javascript/worker-pool";
import { runJavaScriptTests } from "./javascript/run-javascript-tests";
import { prewarmPythonSandbox, runPythonTests } from "./python/run-python-tests";
import { resolveLimits, type SandboxLimits, type TestRunOutcome, type TestRunRequest } from "./types";

export interface RunTestsOptions {
  /** The Python interpreter; by default python3 on PATH, or a system-wide one the sandbox can read. */
  readonly pythonExecutable?: string;
  /**
   * Aborts the run (a cancelled run, a shutdown): the promise rejects with the signal's reason at
   * once, and the sandbox running the code is killed.
   */
  readonly signal?: AbortSignal;
}

/**
 * Runs generated code with its tests in the sandbox of its language: QuickJS in WebAssembly for
 * JavaScript and TypeScript, python3 inside the bubblewrap boundary for Python.
 */
export function runTests(request: TestRunRequest, options: RunTestsOptions = {}): Promise<TestRunOutcome> {
  const run = request.language === "python" ? runPythonTests(request, { pythonExecutable: options.pythonExecutable, signal: options.signal }) : runJavaScriptTests(request, { signal: options.signal });
  return abortable(run, options.signal);
}

/**
 * Starts one sandbox per language ahead of need (for these limits, the defaults if none), so
 * that the first verdict does not pay a sandbox's start-up. Optional; call it when a worker
 * starts. A Python sandbox that is unavailable here stays so, and its first run says why.
 */
export async function prewarmSandboxes(limits?: Partial<SandboxLimits>, options: RunTestsOptions = {}): Promise<void> {
  await Promise.all([prewarmSandboxWorkers(resolveLimits(limits).memoryMb), prewarmPythonSandbox(limits, options)]);
}

import { resolveLimits, type TestRunOutcome, type TestRunRequest } from "../types";
import { finalizeOutcome } from "./finalize-outcome";
import { createOutputBuffer, readOutput } from "./output-buffer";
import { prepareSource } from "./prepare-source";
import { runInWorker } from "./worker-pool";

/** How long after the wall-clock deadline a worker that has not answered is killed. */
const KILL_GRACE_MS = 500;

/**
 * Runs generated JavaScript or TypeScript with its tests in the QuickJS sandbox (001
 * TestGuard: the artifact as global code, then the tests, which see its globals and may also
 * require or import it) and reports what happened.
 * Never throws for anything the code does; see server/sandbox/types.ts for the outcomes and
 * README.md next to this file for the design.
 */
export async function runJavaScriptTests(request: TestRunRequest, options: { readonly signal?: AbortSignal } = {}): Promise<TestRunOutcome> {
  if (request.language !== "javascript" && request.language !== "typescript") {
    throw new Error(`runJavaScriptTests cannot run ${request.language} code`);
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const limits = resolveLimits(request.limits);
  const [artifact, tests] = await Promise.all([
    prepareSource(request.artifact, "artifact", request.language),
    prepareSource(request.tests, "tests", request.language),
  ]);
  if (!artifact.ok) return { status: "error", message: artifact.message, tests: [], output: "", durationMs: elapsed() };
  if (!tests.ok) return { status: "error", message: tests.message, tests: [], output: "", durationMs: elapsed() };

  // The wall clock starts here: it covers the worker's start-up and the run, not transpiling.
  const output = createOutputBuffer(limits.outputBytes);
  const job = {
    artifact: { code: artifact.code, fileName: artifact.fileName, exportsTrailer: artifact.exportsTrailer, topLevelAwait: false },
    tests: { code: tests.code, fileName: tests.fileName, exportsTrailer: false, topLevelAwait: tests.topLevelAwait },
    limits,
    deadline: Date.now() + limits.wallClockMs,
    output,
  };
  const raw = await runInWorker(job, limits.wallClockMs + KILL_GRACE_MS, options.signal);
  return finalizeOutcome(raw, { artifact: artifact.positions, tests: tests.positions }, readOutput(output), elapsed());
}

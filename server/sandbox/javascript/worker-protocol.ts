import type { SandboxLimits, TestRunOutcome } from "../types";

/**
 * The one message the host sends to quickjs-worker.mjs, and the one it gets back. The worker
 * is plain JavaScript, so these types document (not enforce) its side of the protocol.
 */
export interface SandboxSource {
  /** Plain JavaScript: the artifact is evaluated as global code, the tests inside a function (see below). */
  readonly code: string;
  /** artifact.js / artifact.ts / tests.js / tests.ts: names positions in messages. */
  readonly fileName: string;
  /** The artifact's code ends with an object of getters for its ES exports (prepare-source.ts). */
  readonly exportsTrailer: boolean;
  /** The tests await at their top level: their function is async, and the worker awaits it. */
  readonly topLevelAwait: boolean;
}

/**
 * The worker wraps the test code in a function (worker/session.mjs), on lines of its own above
 * the code: positions in the tests are this many lines further down than in the transpiled code.
 */
export const TESTS_WRAPPER_LINES = 1;

export interface SandboxJob {
  readonly artifact: SandboxSource;
  readonly tests: SandboxSource;
  readonly limits: SandboxLimits;
  /** Date.now() value after which the interrupt handler stops the code. */
  readonly deadline: number;
  /** Console output (see worker/output-sink.mjs): Int32 byte count, then UTF-8 bytes. */
  readonly output: SharedArrayBuffer;
}

type WithoutRunInfo<T> = T extends unknown ? Omit<T, "output" | "durationMs"> : never;

/** What the worker reports: an outcome without the output and duration, which the host adds. */
export type WorkerOutcome = WithoutRunInfo<TestRunOutcome>;

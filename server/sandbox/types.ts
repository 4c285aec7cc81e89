/**
 * The contract of Dualstate's sandboxes: run generated code together with test code, under
 * hard limits, and report what happened as data. A sandbox never throws for anything the code
 * does; it throws only when it cannot run at all (a bug or a missing runtime is reported as
 * an `unavailable` outcome instead, when it can be detected).
 */
export type SandboxLanguage = "javascript" | "typescript" | "python";

export interface SandboxLimits {
  /** Whole run, start to verdict, including start-up. The runner is killed hard when it is overrun. */
  readonly wallClockMs: number;
  /** CPU time (Python: RLIMIT_CPU; JavaScript: covered by the wall clock). */
  readonly cpuMs: number;
  /** Memory the code may use. */
  readonly memoryMb: number;
  /** Bytes of console output kept; more than this is a limit hit. */
  readonly outputBytes: number;
}

/**
 * The values every sandbox can honour, for each language (a guard's `limits` are checked against
 * these when the workflow is read). Memory: QuickJS's WebAssembly module declares a 2 GB
 * (32768-page) maximum, of which its own start-up takes 16 MB, so 2032 MB is the most it can be
 * given; the Python sandbox adds the interpreter's own needs on top of any value. The wall clock
 * must leave room for a sandbox to start; the CPU time cannot exceed the wall clock (the
 * JavaScript sandbox is single-threaded and bounded by the wall clock alone).
 */
export const SANDBOX_LIMIT_RANGES = {
  wallClockMs: { min: 100, max: 600_000 },
  cpuMs: { min: 10, max: 600_000 },
  memoryMb: { min: 4, max: 2032 },
  outputBytes: { min: 1, max: 16 * 1024 * 1024 },
} as const satisfies Record<keyof SandboxLimits, { min: number; max: number }>;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  wallClockMs: 5_000,
  cpuMs: 4_000,
  memoryMb: 64,
  outputBytes: 64 * 1024,
};

export interface TestRunRequest {
  readonly language: SandboxLanguage;
  /** The generated code under test. */
  readonly artifact: string;
  /** Test code, run after the artifact in the same scope (001 TestGuard: exec both in one namespace). */
  readonly tests: string;
  readonly limits?: Partial<SandboxLimits>;
}

export interface TestCaseResult {
  readonly name: string;
  readonly passed: boolean;
  /** Assertion message or error, for failed tests. */
  readonly message?: string;
}

/** Which limit stopped a run. */
export type SandboxLimit = "wall_clock" | "cpu" | "memory" | "output" | "stack" | "processes" | "timers" | "file_system" | "network";

/**
 * What a run came to:
 * - passed: the test code ran to its end and every test passed;
 * - failed: the test code ran and at least one test or top-level assertion failed;
 * - error: the artifact or the tests threw before the tests could finish (syntax error, exception);
 * - limit: a limit was hit (which one, and what the code was doing);
 * - incomplete: the run ended without the runner's proof that the tests reached their end
 *   (exited early, killed its runtime, tampered with the test helpers);
 * - unavailable: the language runtime is missing (e.g. no python3 on this machine).
 */
export type TestRunOutcome =
  | { readonly status: "passed"; readonly tests: readonly TestCaseResult[]; readonly output: string; readonly durationMs: number }
  | { readonly status: "failed"; readonly tests: readonly TestCaseResult[]; readonly output: string; readonly durationMs: number }
  | { readonly status: "error"; readonly message: string; readonly tests: readonly TestCaseResult[]; readonly output: string; readonly durationMs: number }
  | { readonly status: "limit"; readonly limit: SandboxLimit; readonly message: string; readonly output: string; readonly durationMs: number }
  | { readonly status: "incomplete"; readonly message: string; readonly output: string; readonly durationMs: number }
  | { readonly status: "unavailable"; readonly message: string; readonly durationMs: number };

/**
 * The defaults, with each limit the caller gave (undefined means "the default"). A CPU limit
 * not given never exceeds the wall clock given.
 */
export function resolveLimits(limits: { readonly [K in keyof SandboxLimits]?: number | undefined } | undefined): SandboxLimits {
  const given = Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined)) as Partial<SandboxLimits>;
  const resolved = { ...DEFAULT_SANDBOX_LIMITS, ...given };
  return given.cpuMs === undefined ? { ...resolved, cpuMs: Math.min(resolved.cpuMs, resolved.wallClockMs) } : resolved;
}

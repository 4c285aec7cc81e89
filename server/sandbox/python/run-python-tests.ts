import { randomBytes } from "node:crypto";
import { constants } from "node:os";
import { resolveLimits, type SandboxLimit, type SandboxLimits, type TestRunOutcome, type TestRunRequest } from "../types";
import { parseReport, type RunnerReport } from "./report";
import { usableInterpreter } from "./usable-interpreter";
import { prewarm, takeSandbox, type StartedSandbox } from "./warm-pool";

export interface PythonSandboxOptions {
  /** The interpreter to run; by default python3 on PATH, or a system-wide one the sandbox can read. */
  readonly pythonExecutable?: string;
  /** Kills the sandbox at once when aborted (a cancelled run, a shutdown); the outcome is then `incomplete`. */
  readonly signal?: AbortSignal;
}

// How long to wait for the killed sandbox's pipes to close before giving up on them.
const CLOSE_GRACE_MS = 2_000;
// The launcher's own wall-clock kill fires this much after the host's timer, which normally wins
// and reports the limit; it exists for when the server's event loop is stuck.
const WATCHDOG_GRACE_MS = 1_000;

/** Why the host ended a run itself, if it did. */
type HostKill = { readonly limit: Extract<SandboxLimit, "wall_clock" | "output">; readonly message: string } | null;

/**
 * Runs Python generated code and its tests (001 TestGuard semantics: the artifact, then the
 * test code, in one namespace, then every test_* function and unittest.TestCase) in a fresh
 * python3 process inside the bubblewrap boundary (../boundary): its own user, pid, network,
 * mount and IPC namespaces, a seccomp filter, a read-only file system holding only the
 * interpreter, and limits set before it starts. The wall clock and the output limit are
 * enforced here, from outside. See README.md for what this promises and what it does not.
 */
export async function runPythonTests(request: TestRunRequest, options: PythonSandboxOptions = {}): Promise<TestRunOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const limits = resolveLimits(request.limits);
  const found = await usableInterpreter(options.pythonExecutable);
  if (!found.ok) return { status: "unavailable", message: found.message, durationMs: elapsed() };
  const sandbox = await takeSandbox(found.interpreter, limits);
  if (!sandbox.ok) return { status: "unavailable", message: sandbox.message, durationMs: elapsed() };
  // The wall clock starts when the sandbox gets the code (not during the one-time interpreter check).
  const run = await runProcess(sandbox, request, limits, performance.now(), options.signal);
  return toOutcome(run, limits, elapsed());
}

/**
 * Starts a warm Python sandbox for these limits before the first run needs it (optional: the
 * first run otherwise pays the sandbox's start-up). Resolves once the interpreter is checked.
 */
export async function prewarmPythonSandbox(limits?: Partial<SandboxLimits>, options: PythonSandboxOptions = {}): Promise<void> {
  const found = await usableInterpreter(options.pythonExecutable);
  if (found.ok) prewarm(found.interpreter, resolveLimits(limits));
}

interface ProcessRun {
  readonly spawnError: NodeJS.ErrnoException | null;
  readonly hostKill: HostKill;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
  readonly report: RunnerReport | null;
}

function runProcess(sandbox: StartedSandbox, request: TestRunRequest, limits: SandboxLimits, started: number, abort?: AbortSignal): Promise<ProcessRun> {
  const nonce = randomBytes(16).toString("hex");
  const { child } = sandbox;
  return new Promise((resolve) => {
    const output: Buffer[] = [];
    const reportChunks: Buffer[] = [];
    let outputSize = 0;
    let reportSize = 0;
    let hostKill: HostKill = null;
    let spawnError: NodeJS.ErrnoException | null = null;
    let settled = false;

    // The outer bwrap and prlimit's group; the sandbox's pid namespace dies with them.
    const killGroup = sandbox.kill;
    const stop = (kill: NonNullable<HostKill>) => {
      hostKill ??= kill;
      killGroup();
      graceTimer ??= setTimeout(() => finish(null, null), CLOSE_GRACE_MS);
    };
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(wallClockTimer);
      clearTimeout(graceTimer);
      abort?.removeEventListener("abort", onAbort);
      killGroup();
      for (const stream of [child.stdout, child.stderr, child.stdio[3]]) stream?.destroy();
      const report = parseReport(Buffer.concat(reportChunks).toString("utf8"), nonce);
      resolve({ spawnError, hostKill, exitCode, signal, output: Buffer.concat(output).toString("utf8"), report });
    };

    let graceTimer: NodeJS.Timeout | undefined;
    sandbox.startWallClock(limits.wallClockMs - (performance.now() - started) + WATCHDOG_GRACE_MS);
    const wallClockTimer = setTimeout(
      () => stop({ limit: "wall_clock", message: `the run took longer than the wall-clock limit of ${limits.wallClockMs} ms and was stopped (an endless loop, a long sleep, or waiting for something)` }),
      Math.max(0, limits.wallClockMs - (performance.now() - started)),
    );

    // A cancelled run frees its sandbox at once instead of running on to its wall clock.
    const onAbort = () => {
      killGroup();
      graceTimer ??= setTimeout(() => finish(null, null), CLOSE_GRACE_MS);
    };
    if (abort?.aborted) onAbort();
    else abort?.addEventListener("abort", onAbort, { once: true });

    const collectOutput = (chunk: Buffer) => {
      const room = limits.outputBytes - outputSize;
      if (room > 0) output.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
      outputSize += chunk.length;
      if (outputSize > limits.outputBytes) stop({ limit: "output", message: `the code printed more than the output limit of ${limits.outputBytes} bytes and was stopped` });
    };
    child.stdout?.on("data", collectOutput);
    child.stderr?.on("data", collectOutput);
    const reportStream = child.stdio[3];
    reportStream?.on("data", (chunk: Buffer) => {
      reportSize += chunk.length;
      // A real report is a few hundred kB at most; anything bigger is not one.
      if (reportSize <= 8 * 1024 * 1024) reportChunks.push(chunk);
    });
    reportStream?.on("error", () => {});

    child.on("error", (error: NodeJS.ErrnoException) => {
      spawnError = error;
      finish(null, null);
    });
    // Once the runner exits, anything left in its group (nothing should be) dies too.
    child.on("exit", killGroup);
    child.on("close", (exitCode, signal) => finish(exitCode, signal));

    child.stdin?.on("error", () => {}); // the child may exit before reading its input; the outcome tells why
    const artifact = Buffer.from(request.artifact, "utf8");
    const tests = Buffer.from(request.tests, "utf8");
    const numbers = [limits.wallClockMs, limits.cpuMs, limits.memoryMb].map((value) => Math.max(1, Math.round(value)));
    const header = `${nonce} ${numbers.join(" ")} ${artifact.length} ${tests.length}\n`;
    child.stdin?.end(Buffer.concat([Buffer.from(header, "ascii"), artifact, tests]));
  });
}

const SIGNAL_LIMITS: Partial<Record<NodeJS.Signals, { limit: SandboxLimit; message: (limits: SandboxLimits) => string }>> = {
  SIGPROF: { limit: "cpu", message: (l) => `the code used more than the CPU time limit of ${l.cpuMs} ms and was stopped` },
  SIGXCPU: { limit: "cpu", message: (l) => `the code used more than the CPU time limit of ${l.cpuMs} ms and was stopped (RLIMIT_CPU)` },
  SIGXFSZ: { limit: "file_system", message: () => "the code wrote a file larger than the sandbox allows" },
  SIGSEGV: { limit: "stack", message: () => "the Python interpreter crashed (SIGSEGV), most likely a C stack overflow from very deep recursion" },
};

function toOutcome(run: ProcessRun, limits: SandboxLimits, durationMs: number): TestRunOutcome {
  const { output } = run;
  if (run.spawnError) {
    return { status: "unavailable", message: `the Python sandbox could not be started: ${run.spawnError.message}`, durationMs };
  }
  if (run.hostKill) return { status: "limit", limit: run.hostKill.limit, message: run.hostKill.message, output, durationMs };
  if (run.signal === "SIGKILL" && !run.report && durationMs >= limits.wallClockMs) {
    // The launcher's watchdog, not this process's timer, ended it: the server was too busy to.
    return { status: "limit", limit: "wall_clock", message: `the run took longer than the wall-clock limit of ${limits.wallClockMs} ms and was stopped`, output, durationMs };
  }
  const report = run.report;
  if (report) {
    switch (report.status) {
      case "passed":
      case "failed":
        return { status: report.status, tests: report.tests, output, durationMs };
      case "error":
        return { status: "error", message: report.message ?? "the code raised an error", tests: report.tests, output, durationMs };
      case "limit":
        return { status: "limit", limit: report.limit ?? "cpu", message: report.message ?? "a limit was hit", output, durationMs };
      case "incomplete":
        return { status: "incomplete", message: report.message ?? "the tests did not run to their end", output, durationMs };
      case "unavailable":
        return { status: "unavailable", message: report.message ?? "python3 cannot run the sandbox", durationMs };
    }
  }
  const signal = run.signal ?? signalOfStatus(run.exitCode);
  const bySignal = signal ? SIGNAL_LIMITS[signal] : undefined;
  if (bySignal) return { status: "limit", limit: bySignal.limit, message: bySignal.message(limits), output, durationMs };
  const how = signal ? `the interpreter was killed by ${signal}` : `the interpreter exited with status ${run.exitCode ?? "unknown"}`;
  return {
    status: "incomplete",
    message: `the test code did not run to its end (the artifact exited early or killed the interpreter): ${how} before the runner reported`,
    output,
    durationMs,
  };
}

/** bwrap reports a sandboxed process killed by signal N as exit status 128 + N. */
function signalOfStatus(status: number | null): NodeJS.Signals | null {
  if (status === null || status <= 128) return null;
  const entry = Object.entries(constants.signals).find(([, number]) => number === status - 128);
  return entry ? (entry[0] as NodeJS.Signals) : null;
}

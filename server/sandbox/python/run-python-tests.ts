import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveLimits, type SandboxLimit, type SandboxLimits, type TestRunOutcome, type TestRunRequest } from "../types";
import { parseReport, type RunnerReport } from "./report";
import { removeRunDirectory } from "./run-directory";
import { PYTHON_MISSING, resolvePythonExecutable } from "./resolve-python";

export interface PythonSandboxOptions {
  /** python3 by default, looked up on the host's PATH. */
  readonly pythonExecutable?: string;
}

const RUNNER = fileURLToPath(new URL("./runner.py", import.meta.url));
// -I: isolated mode (no PYTHON* variables, no script or user site directory on sys.path);
// -S: no site module, so only the standard library is importable; -B: no .pyc writes.
const PYTHON_FLAGS = ["-I", "-S", "-B"];
// How long to wait for the killed process group's pipes to close before giving up on them.
const CLOSE_GRACE_MS = 2_000;

/** Why the host ended a run itself, if it did. */
type HostKill = { readonly limit: Extract<SandboxLimit, "wall_clock" | "output">; readonly message: string } | null;

/**
 * Runs Python generated code and its tests (001 TestGuard semantics: the artifact, then the
 * test code, in one namespace, then every test_* function and unittest.TestCase) in a fresh
 * python3 process under limits and an audit hook. See README.md for what that does and does
 * not promise.
 */
export async function runPythonTests(request: TestRunRequest, options: PythonSandboxOptions = {}): Promise<TestRunOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (process.platform === "win32") {
    return { status: "unavailable", message: "the Python sandbox needs Linux or macOS (process groups and resource limits)", durationMs: elapsed() };
  }
  const limits = resolveLimits(request.limits);
  const python = await resolvePythonExecutable(options.pythonExecutable ?? "python3");
  if (!python.ok) return { status: "unavailable", message: python.message, durationMs: elapsed() };

  // realpath: the runner compares paths textually against its cwd (macOS: /tmp -> /private/tmp).
  const runDirectory = await realpath(await mkdtemp(join(tmpdir(), "dualstate-py-")));
  try {
    const run = await runProcess(python.path, runDirectory, request, limits, started);
    return toOutcome(run, limits, elapsed());
  } finally {
    await removeRunDirectory(runDirectory);
  }
}

interface ProcessRun {
  readonly spawnError: NodeJS.ErrnoException | null;
  readonly hostKill: HostKill;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
  readonly report: RunnerReport | null;
}

function runProcess(python: string, cwd: string, request: TestRunRequest, limits: SandboxLimits, started: number): Promise<ProcessRun> {
  const nonce = randomBytes(16).toString("hex");
  return new Promise((resolve) => {
    const child = spawn(python, [...PYTHON_FLAGS, RUNNER], {
      cwd,
      // Nothing of the host's environment. MALLOC_ARENA_MAX=1 keeps glibc from reserving a
      // 64 MB arena per thread, which RLIMIT_AS would count as used memory; TMPDIR makes
      // tempfile use the run directory instead of probing /tmp (which the sandbox denies).
      env: { MALLOC_ARENA_MAX: "1", TMPDIR: cwd } as unknown as NodeJS.ProcessEnv,
      // stdin, stdout, stderr, and fd 3 for the runner's report.
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      // Its own process group, so everything it might start dies with it.
      detached: true,
    });
    const output: Buffer[] = [];
    const reportChunks: Buffer[] = [];
    let outputSize = 0;
    let reportSize = 0;
    let hostKill: HostKill = null;
    let spawnError: NodeJS.ErrnoException | null = null;
    let settled = false;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group is gone already.
      }
    };
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
      killGroup();
      for (const stream of [child.stdout, child.stderr, child.stdio[3]]) stream?.destroy();
      const report = parseReport(Buffer.concat(reportChunks).toString("utf8"), nonce);
      resolve({ spawnError, hostKill, exitCode, signal, output: Buffer.concat(output).toString("utf8"), report });
    };

    let graceTimer: NodeJS.Timeout | undefined;
    const wallClockTimer = setTimeout(
      () => stop({ limit: "wall_clock", message: `the run took longer than the wall-clock limit of ${limits.wallClockMs} ms and was stopped (an endless loop, a long sleep, or waiting for something)` }),
      Math.max(0, limits.wallClockMs - (performance.now() - started)),
    );

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
    const message = run.spawnError.code === "ENOENT" ? PYTHON_MISSING : `python3 could not be started: ${run.spawnError.message}`;
    return { status: "unavailable", message, durationMs };
  }
  if (run.hostKill) return { status: "limit", limit: run.hostKill.limit, message: run.hostKill.message, output, durationMs };
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
  const bySignal = run.signal ? SIGNAL_LIMITS[run.signal] : undefined;
  if (bySignal) return { status: "limit", limit: bySignal.limit, message: bySignal.message(limits), output, durationMs };
  const how = run.signal ? `the interpreter was killed by ${run.signal}` : `the interpreter exited with status ${run.exitCode ?? "unknown"}`;
  return {
    status: "incomplete",
    message: `the test code did not run to its end (the artifact exited early or killed the interpreter): ${how} before the runner reported`,
    output,
    durationMs,
  };
}

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolvePythonExecutable } from "./resolve-python";
import { outputOf, runPython, sandboxProcessesWithCpuLimit } from "./test-support";
import { discardWarmSandboxes } from "./warm-pool";

/** The run's processes (found by its unusual CPU limit) once the idle warm sandboxes are gone too. */
async function leftoverProcesses(cpuSeconds: number): Promise<number[]> {
  discardWarmSandboxes();
  for (let waited = 0; waited < 3_000 && sandboxProcessesWithCpuLimit(cpuSeconds).length > 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  return sandboxProcessesWithCpuLimit(cpuSeconds);
}

const PASS = "def test_ok():\n    assert True\n";

describe("python sandbox limits", () => {
  it("stops an endless loop at the CPU limit (or the wall clock, under load), saying which", async () => {
    const started = performance.now();
    const outcome = await runPython("while True:\n    pass\n", PASS, { cpuMs: 1_000, wallClockMs: 3_000 });
    expect(outcome.status).toBe("limit");
    if (outcome.status !== "limit") return;
    expect(["cpu", "wall_clock"]).toContain(outcome.limit);
    expect(outcome.message).toMatch(outcome.limit === "cpu" ? /CPU time limit of 1000 ms/ : /wall-clock limit of 3000 ms/);
    expect(performance.now() - started).toBeLessThan(3_000 + 1_000);
  });

  it("stops a sleep at the wall clock, returns within about a second of it and leaves no process behind", async () => {
    const started = performance.now();
    const outcome = await runPython("import os, time\nprint(os.getcwd(), flush=True)\ntime.sleep(100)\n", PASS, { wallClockMs: 1_500, cpuMs: 6_001 });
    expect(outcome).toMatchObject({ status: "limit", limit: "wall_clock", message: expect.stringContaining("wall-clock limit of 1500 ms") });
    expect(performance.now() - started).toBeLessThan(1_500 + 1_000);
    expect(await leftoverProcesses(7)).toEqual([]);
  });

  it("gives up on its own shortly after the wall clock if the host never kills it (the host died)", async () => {
    const python = await resolvePythonExecutable("python3");
    if (!python.ok) throw new Error(python.message);
    const directory = mkdtempSync(join(tmpdir(), "dualstate-orphan-"));
    try {
      const runner = fileURLToPath(new URL("./runner.py", import.meta.url));
      const child = spawn(python.path, ["-I", "-S", "-B", runner], { cwd: directory, env: {} as NodeJS.ProcessEnv, stdio: ["pipe", "ignore", "ignore", "pipe"] });
      const artifact = "import time\ntime.sleep(100)\n";
      const started = performance.now();
      child.stdin?.end(`${"0".repeat(32)} 500 10000 64 ${artifact.length} 0\n${artifact}`);
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(status).toBe(124);
      expect(performance.now() - started).toBeLessThan(500 + 2_000 + 1_000);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("reports memory bombs as the memory limit", async () => {
    const lists = await runPython("a = [bytearray(10**7) for _ in range(10**4)]\n", PASS);
    expect(lists).toMatchObject({ status: "limit", limit: "memory", message: expect.stringMatching(/^memory limit: the code needed more than 64 MB \(MemoryError \(artifact\.py line 1\)\)$/) });
    const doubling = await runPython("s = 'x'\nwhile True:\n    s += s\n", PASS, { memoryMb: 32 });
    expect(doubling).toMatchObject({ status: "limit", limit: "memory", message: expect.stringContaining("more than 32 MB") });
  });

  it("reports deep recursion as the stack limit", async () => {
    const outcome = await runPython("def f():\n    return f()\n\nf()\n", PASS);
    expect(outcome).toMatchObject({ status: "limit", limit: "stack", message: "stack limit: RecursionError: maximum recursion depth exceeded (artifact.py line 2)" });
  });

  it("reports recursion past a raised recursion limit as the stack limit, never a hang", async () => {
    // Through C (map): the thread's C stack overflows and the interpreter crashes.
    const native = await runPython("import sys\nsys.setrecursionlimit(10**6)\n\ndef f(x):\n    return list(map(f, [x]))\n\nf(1)\n", PASS);
    expect(native).toMatchObject({ status: "limit", limit: "stack", message: expect.stringContaining("SIGSEGV") });
    expect(outputOf(native)).toContain('File "artifact.py", line 5 in f'); // faulthandler's traceback
    // Pure Python: frames run out of memory before a million calls. A roomy CPU limit: on a
    // loaded machine the default 4 s can run out first and hide the limit under test.
    const python = await runPython("import sys\nsys.setrecursionlimit(10**6)\n\ndef f():\n    return f()\n\nf()\n", PASS, { cpuMs: 20_000, wallClockMs: 30_000 });
    expect(python).toMatchObject({ status: "limit", limit: "stack", message: expect.stringMatching(/^stack limit: the code recursed \d+ calls deep/) });
  });

  it("stops an output flood at the output limit and keeps only that much", async () => {
    const outcome = await runPython("while True:\n    print('x' * 1000)\n", PASS, { outputBytes: 10_000 });
    expect(outcome).toMatchObject({ status: "limit", limit: "output", message: expect.stringContaining("output limit of 10000 bytes") });
    expect(outputOf(outcome).length).toBe(10_000);
  });

  it("stops a fork bomb at the first fork and leaves no process behind", async () => {
    const outcome = await runPython("import os\nprint(os.getcwd(), flush=True)\nwhile True:\n    os.fork()\n", PASS, { cpuMs: 5_001 });
    expect(outcome).toMatchObject({
      status: "limit",
      limit: "processes",
      message: "the sandbox does not allow starting a process (os.fork), at artifact.py line 4",
    });
    expect(await leftoverProcesses(6)).toEqual([]);
  });

  it("denies every other way to start a process, even when the code catches the error", async () => {
    const attempts = [
      "import subprocess\nsubprocess.run(['echo', 'hi'])",
      "import os\nos.system('echo hi')",
      "import os\nos.posix_spawn('/bin/echo', ['echo'], {})",
      "import os\nos.execv('/bin/echo', ['echo'])",
      "import pty\npty.spawn('/bin/echo')",
      "import multiprocessing\nmultiprocessing.Process(target=print).start()",
      // fork_exec raises no audit event of its own; the runner disarms it.
      "import _posixsubprocess, os\nr, w = os.pipe()\n_posixsubprocess.fork_exec([b'/bin/true'], [b'/bin/true'], True, (w,), None, None, -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1, None, False)",
      "import os\ntry:\n    os.fork()\nexcept PermissionError:\n    pass",
    ];
    for (const artifact of attempts) {
      const outcome = await runPython(artifact, PASS);
      expect(outcome, artifact).toMatchObject({ status: "limit", limit: "processes", message: expect.stringContaining("does not allow starting a process") });
    }
  });

  it("reports a timer or alarm still pending after the tests as the timers limit, and it never fires", async () => {
    const timer = await runPython("import threading\nthreading.Timer(0.3, print, ['fired late']).start()\n", PASS, { wallClockMs: 3_000 });
    expect(timer).toMatchObject({ status: "limit", limit: "timers", message: expect.stringContaining("(threading.Timer)") });
    expect(outputOf(timer)).not.toContain("fired late");
    const alarm = await runPython("import signal\nsignal.alarm(30)\n", PASS);
    expect(alarm).toMatchObject({ status: "limit", limit: "timers", message: expect.stringContaining("signal.alarm(30)") });
    // Threads that finished, and an executor's idle workers, are fine.
    const joined = await runPython("import threading, concurrent.futures\nt = threading.Thread(target=print)\nt.start()\nt.join()\npool = concurrent.futures.ThreadPoolExecutor(2)\npool.submit(abs, -1).result()\n", PASS);
    expect(joined).toMatchObject({ status: "passed" });
  });

  it("stops a 100 MB file at the file size limit, and writes outside the run directory", async () => {
    const big = await runPython("with open('big.bin', 'wb') as f:\n    for _ in range(100):\n        f.write(b'0' * 10**6)\n", PASS);
    expect(big).toMatchObject({ status: "limit", limit: "file_system", message: expect.stringMatching(/^file size limit: a file grew past 4 MB \(OSError: \[Errno 27\] File too large/) });
    const outside = await runPython("open('/tmp/dualstate-escape.txt', 'w').write('x')\n", PASS);
    expect(outside).toMatchObject({ status: "limit", limit: "file_system", message: expect.stringContaining("writing /tmp/dualstate-escape.txt") });
    expect(existsSync("/tmp/dualstate-escape.txt")).toBe(false);
    // Functions without an audit event of their own are disarmed too.
    for (const artifact of ["import os\nos.mkfifo('/tmp/dualstate-fifo')", "import posix\nposix.mknod('node')", "from multiprocessing import shared_memory"]) {
      expect(await runPython(artifact, PASS), artifact).toMatchObject({ status: "limit", limit: "file_system" });
    }
    expect(existsSync("/tmp/dualstate-fifo")).toBe(false);
  });

  it("still runs ordinary code, 20 times in a row, after all of that", async () => {
    for (let i = 0; i < 20; i++) {
      const outcome = await runPython(`def f():\n    return ${i}\n`, `def test_f():\n    assert f() == ${i}\n`);
      expect(outcome).toMatchObject({ status: "passed", tests: [{ name: "test_f", passed: true }] });
    }
  });
});

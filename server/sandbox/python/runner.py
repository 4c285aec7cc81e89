"""Dualstate's Python test runner, started by run-python-tests.ts as `python3 -I -S -B runner.py`
inside the bubblewrap boundary (../boundary), in an empty environment and a private tmpfs.
Everything here (the audit hook, the limits it sets, the nonce) is defence in depth and gives
precise verdicts; the boundary does not depend on any of it.

stdin: a header line "<nonce> <wallClockMs> <cpuMs> <memoryMb> <artifact bytes> <tests bytes>", then the
artifact and the tests, UTF-8. (Not JSON: importing json costs 9 ms of a 20 ms start.)
fd 3: one JSON line {nonce, status, limit, message, tests} once the test code has run to its
end. The host counts nothing without that line and its nonce, so an artifact that exits early,
kills the interpreter or prints a fake report gets "incomplete" instead of "passed".

The generated code runs in a worker thread. The nonce exists only in main()'s locals, and the
main thread runs no generated code once the sandbox is armed: no frame the code can walk up to
holds the nonce, and the audit hook denies the introspection that could reach it (gc,
sys._current_frames). main() uses only functions captured before the code runs.
"""

import _json
import _signal
import _thread
import builtins
import gc
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS_FD = 3
# zoneinfo's default search path: reading time zones is harmless and sometimes needed.
EXTRA_READ_ROOTS = ("/usr/share/zoneinfo",)

# Captured before any generated code runs. Once it does, the main thread uses only these (and
# methods of str, bytes, list and tuple, which cannot be replaced): the code may have changed
# builtins or os by then, and nothing of the code's may run in this thread, next to the nonce.
# This module's globals are out of the code's reach: the worker replaces sys.modules["__main__"].
_read, _write, _exit, _close = os.read, os.write, os._exit, os.close
_type, _str, _bool, _list, _tuple, _len = type, str, bool, list, tuple, len
_encode = _json.encode_basestring_ascii
_stdout, _stderr = sys.stdout, sys.stderr
_gc_disable, _gc_callbacks = gc.disable, gc.callbacks
_monotonic = time.monotonic
# Exit status when the runner gives up waiting for the worker (see run_sandboxed).
GAVE_UP = 124


def load(filename):
    """Runs one of the runner's helper files with its own copy of builtins and returns its
    namespace. Not registered in sys.modules, so the code under test cannot import it."""
    path = os.path.join(HERE, filename)
    with open(path, encoding="utf-8") as source:
        code = compile(source.read(), path, "exec", dont_inherit=True)
    namespace = {"__name__": "dualstate_" + filename[:-3], "__builtins__": dict(builtins.__dict__)}
    exec(code, namespace)
    return namespace


def read_stdin():
    chunks = []
    while True:
        chunk = _read(0, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def parse_request(raw):
    newline = raw.index(b"\n")
    nonce, wall_clock_ms, cpu_ms, memory_mb, artifact_size, tests_size = raw[:newline].decode("ascii").split()
    body = raw[newline + 1 :]
    artifact_end = int(artifact_size)
    request = {
        "wallClockMs": int(wall_clock_ms),
        "cpuMs": int(cpu_ms),
        "memoryMb": int(memory_mb),
        "artifact": body[:artifact_end].decode("utf-8", "replace"),
        "tests": body[artifact_end : artifact_end + int(tests_size)].decode("utf-8", "replace"),
    }
    return nonce, request


def main():
    # Everything that does not depend on the request is done first: a warm sandbox waits here,
    # blocked on stdin, with the interpreter and the runner's helpers already loaded.
    helpers = load("sandbox_policy.py"), load("run_session.py")
    nonce, request = parse_request(read_stdin())
    if sys.version_info < (3, 8):  # no audit hooks
        results_fd, report = RESULTS_FD, ("unavailable", None, "python3 is %d.%d; Python guards need 3.8 or later" % sys.version_info[:2], [])
    else:
        # A random, high descriptor: code looking for "the results pipe" at fd 3 finds nothing.
        results_fd = os.dup2(RESULTS_FD, 100 + int.from_bytes(os.urandom(2), "little") % 150, inheritable=False)
        _close(RESULTS_FD)
        report = run_sandboxed(request, *helpers)
    del request
    data = ('{"nonce":' + _encode(nonce) + "," + serialize(report) + "}\n").encode("utf-8")
    while data:
        data = data[_write(results_fd, data) :]
    for stream in (_stdout, _stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: the report is written; lost output is acceptable
            pass
    # Hard exit: no atexit handlers, no waiting for threads; pending timers never fire.
    _exit(0)


def run_sandboxed(request, policy, session):
    """Arms the sandbox, lets the worker thread run the code and returns its report, unchecked:
    (status, limit, message, tests), or ("violation", kind, what, report) when the audit hook
    denied something, which decides the verdict whether the code caught the error or not."""
    artifact, tests = request["artifact"], request["tests"]
    artifact_code, artifact_error = session["compile_code"](artifact, "artifact.py", False)
    tests_code, tests_error = session["compile_code"](tests, "tests.py", True)
    cpu_ms, memory_mb = request["cpuMs"], request["memoryMb"]

    # Modules the runner relies on, imported and captured now, checked again after the artifact.
    modules, classes, testcase = {}, {}, None
    if "unittest" in tests:
        import unittest

        testcase = unittest.TestCase
        modules = {name: sys.modules[name] for name in ("unittest", "unittest.case", "unittest.result", "unittest.suite", "unittest.loader")}
        classes = {cls: dict(cls.__dict__) for cls in (unittest.TestCase, unittest.TestResult, unittest.TestSuite, unittest.suite.BaseTestSuite, unittest.TestLoader)}
    policy["disarm_unaudited"]()
    # The main thread would run Python signal handlers; a simulated Ctrl-C
    # (_thread.interrupt_main) must not break its wait.
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)

    job = {
        "artifact": artifact,
        "tests": tests,
        "artifact_code": artifact_code,
        "artifact_error": artifact_error,
        "tests_code": tests_code,
        "tests_error": tests_error,
        "testcase": testcase,
        "modules": modules,
        "classes": classes,
        "builtins_module": builtins,
        "builtins": dict(builtins.__dict__),
        "denied": policy["SandboxDenied"],
        "memory_mb": memory_mb,
        "max_file_mb": policy["MAX_FILE_BYTES"] // policy["MB"],
    }
    go, done, box = _thread.allocate_lock(), _thread.allocate_lock(), []
    go.acquire()
    done.acquire()
    # A bare _thread thread: threading (7 ms to import) is left to the code, which then takes
    # this worker for the main thread, so the threads it starts are not daemons by default and
    # a pending threading.Timer is reported. Started before the limits, so its stack is part
    # of the measured baseline.
    _thread.start_new_thread(session["work"], (job, box, go, done))

    policy["set_limits"](cpu_ms, memory_mb)
    # The runner's own files too: inspect.stack() and tracebacks read the source of every
    # frame, the runner's included. They hold no secrets.
    own_files = tuple(os.path.join(HERE, name) for name in ("runner.py", "sandbox_policy.py", "run_session.py"))
    roots = tuple(os.path.realpath(entry) for entry in sys.path if entry) + EXTRA_READ_ROOTS + own_files
    violations = policy["install_audit_hook"](os.getcwd(), roots)
    # CPU time, precisely: SIGPROF's default action ends the process (RLIMIT_CPU counts whole seconds).
    _signal.setitimer(_signal.ITIMER_PROF, max(cpu_ms, 1) / 1000)
    # The host kills the process group at the wall clock. Should the host die first, the
    # process group would live on (it is detached, and a sleeping process uses no CPU time), so
    # the runner also gives up on its own shortly after the wall clock.
    deadline = _monotonic() + request["wallClockMs"] / 1000 + 2
    go.release()
    while True:
        try:
            remaining = deadline - _monotonic()
            if done.acquire(True, remaining if remaining > 0 else 0):
                break
            _exit(GAVE_UP)
        except BaseException:  # noqa: interrupted; keep waiting for the worker
            pass
    # No collection in this thread from now on: a finalizer or gc callback of the code's
    # objects must not run here. (The worker collected and disabled gc; threads the code left
    # running could have enabled it again.)
    _gc_disable()
    del _gc_callbacks[:]
    report = box[0] if _len(box) == 1 else None  # box is our list; its item is checked later
    if violations:
        return ("violation", violations[0][0], violations[0][1], report)
    return report


def serialize(report):
    """The report as JSON members. Checks every type before touching a value, so a report the
    code tampered with cannot run code here or smuggle in anything but strings and booleans."""
    violation = None
    if _type(report) is _tuple and _len(report) == 4 and _type(report[0]) is _str and report[0] == "violation":
        violation, report = report, report[3]
    if _type(report) is not _tuple or _len(report) != 4 or _type(report[0]) is not _str:
        report = ("error", None, "the test runner's report was damaged", [])
    status, limit, message, tests = report
    if violation is not None:
        # ("violation", kind, what, report): kind and what come from the audit hook.
        denied_message = message if status == "denied" and _type(message) is _str else None
        status, limit = ("incomplete", None) if violation[1] == "tamper" else ("limit", violation[1])
        message, tests = denied_message or "the sandbox does not allow " + violation[2], []
    elif status == "denied":  # a denial without a recorded violation: should not happen
        status = "error"

    def text(value):
        return _encode(value) if _type(value) is _str else "null"

    items = []
    if _type(tests) is _list:
        for test in tests[:1000]:
            if _type(test) is _tuple and _len(test) == 3 and _type(test[1]) is _bool:
                items.append('{"name":' + text(test[0]) + ',"passed":' + ("true" if test[1] else "false") + ',"message":' + text(test[2]) + "}")
    return '"status":' + text(status) + ',"limit":' + text(limit) + ',"message":' + text(message) + ',"tests":[' + ",".join(items) + "]"


main()

"""Runs the artifact and then the test code in one namespace (001 TestGuard), then every
top-level test_* function and unittest.TestCase in definition order, in runner.py's worker
thread. Returns a report: (status, limit, message, tests), tests being (name, passed, message).

runner.py loads this file with its own copy of builtins, so code under test that replaces
builtins.isinstance or the like does not change how its results are judged.
"""

import _ast
import _signal
import _thread
import faulthandler
import gc
import sys

# Marks assertion messages added by rewrite_asserts; never shown.
MARK = "__dualstate_assert__"
MAX_MESSAGE = 2000
MAX_REPR = 300
USER_FILES = ("artifact.py", "tests.py")
# When reporting itself fails: exceptions that stand for a limit.
STOPPING = ((MemoryError, "memory"), (RecursionError, "stack"))
# Nested calls beyond which running out of memory counts as the stack limit.
DEEP_RECURSION = 10_000
LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def source_lines(source):
    """Lines as the compiler counts them (unlike str.splitlines, which also splits at \f)."""
    return source.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _segment(lines, node):
    """The source text of a node, on one line (ast.get_source_segment without importing ast,
    which costs 10 ms of start-up; offsets are in UTF-8 bytes)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    if not 0 <= first <= last < len(lines):
        return "..."
    if first == last:
        text = lines[first].encode()[node.col_offset : node.end_col_offset].decode(errors="replace")
    else:
        head = lines[first].encode()[node.col_offset :].decode(errors="replace")
        tail = lines[last].encode()[: node.end_col_offset].decode(errors="replace")
        text = " ".join([head] + lines[first + 1 : last] + [tail])
    return " ".join(text.split())


def _located(node, at):
    for name in LOCATION:
        setattr(node, name, getattr(at, name, None))
    return node


def _rewrite_assert(node, lines):
    """`assert a == b` without a message becomes `assert (l := a) == (r := b), (MARK, "a == b", l, r)`
    so a failure can show the source and both values; other bare asserts get their source."""
    parts = [_located(_ast.Constant(MARK), node), _located(_ast.Constant(_segment(lines, node.test)), node)]
    test = node.test
    if isinstance(test, _ast.Compare) and len(test.ops) == 1:
        names = [_located(_ast.Name(name, _ast.Store()), node) for name in ("_dualstate_left", "_dualstate_right")]
        left = _located(_ast.NamedExpr(names[0], test.left), test.left)
        right = _located(_ast.NamedExpr(names[1], test.comparators[0]), test.comparators[0])
        test = _located(_ast.Compare(left, test.ops, [right]), test)
        parts += [_located(_ast.Name(name, _ast.Load()), node) for name in ("_dualstate_left", "_dualstate_right")]
    return _located(_ast.Assert(test, _located(_ast.Tuple(parts, _ast.Load()), node)), node)


def _rewrite(node, lines):
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, _ast.Assert) and item.msg is None:
                    value[index] = _rewrite_assert(item, lines)
                elif isinstance(item, _ast.AST):
                    _rewrite(item, lines)
        elif isinstance(value, _ast.AST):
            _rewrite(value, lines)


def compile_code(source, filename, rewrite):
    """(code, None) or (None, "SyntaxError: ... (artifact.py line 3)")."""
    try:
        if rewrite:
            try:
                tree = compile(source, filename, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
                _rewrite(tree, source_lines(source))
                return compile(tree, filename, "exec", dont_inherit=True), None
            except (ValueError, TypeError):
                pass  # a node the rewrite got wrong: compile the plain source
        return compile(source, filename, "exec", dont_inherit=True), None
    except SyntaxError as error:
        return None, "%s: %s (%s line %s)" % (type(error).__name__, error.msg, filename, error.lineno)
    except (ValueError, MemoryError, RecursionError) as error:  # null bytes, absurdly nested code
        return None, "%s: %s (%s)" % (type(error).__name__, error, filename)


def _safe_str(value, limit=MAX_MESSAGE):
    try:
        text = str(value)
    except BaseException:  # noqa: a broken __str__ must not break the report
        text = "<unprintable %s>" % type(value).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def _safe_repr(value):
    try:
        text = repr(value)
    except BaseException:
        text = "<unrepresentable %s>" % type(value).__name__
    return text if len(text) <= MAX_REPR else text[:MAX_REPR] + "..."


def restore(current, snapshot, prefix, changed):
    """Puts back the entries of `current` that differ from `snapshot` (new ones may stay)."""
    for name, value in snapshot.items():
        if current.get(name, changed) is not value:
            changed.append(prefix + name)
            current[name] = value


class Session:
    def __init__(self, job):
        self.job = job
        self.sources = {"artifact.py": source_lines(job["artifact"]), "tests.py": source_lines(job["tests"])}
        self.results = []
        self.reserve = None

    # --- messages -------------------------------------------------------------------------

    @staticmethod
    def frames(tb):
        """The innermost frame in the generated code or the tests, and the first in the tests,
        as (filename, line); without building a list (a RecursionError has a million frames)."""
        inner = outer = None
        depth = 0
        while tb is not None:
            filename = tb.tb_frame.f_code.co_filename
            if filename in USER_FILES:
                inner = (filename, tb.tb_lineno)
                if outer is None and filename == "tests.py":
                    outer = inner
            depth += 1
            tb = tb.tb_next
        return inner, outer, depth

    def where(self, tb):
        """'artifact.py line 3, called from tests.py line 9'."""
        inner, outer, _ = self.frames(tb)
        if inner is None:
            return ""
        return "%s line %d" % inner + ("" if outer is None or outer == inner else ", called from %s line %d" % outer)

    def source_line(self, tb):
        inner = self.frames(tb)[0]
        lines = self.sources.get(inner[0], []) if inner else []
        return lines[inner[1] - 1].strip() if inner and 0 < inner[1] <= len(lines) else ""

    def describe(self, error):
        where = self.where(error.__traceback__)
        suffix = " (%s)" % where if where else ""
        if isinstance(error, AssertionError):
            arg = error.args[0] if len(error.args) == 1 else None
            if type(arg) is tuple and len(arg) in (2, 4) and arg[0] == MARK:
                text = "assert " + _safe_str(arg[1])
                if len(arg) == 4:
                    text += " (left: %s, right: %s)" % (_safe_repr(arg[2]), _safe_repr(arg[3]))
                return text + suffix
            text = _safe_str(error).strip()
            return (text or self.source_line(error.__traceback__) or "AssertionError") + suffix
        text = _safe_str(error).strip()
        return type(error).__name__ + (": " + text if text else "") + suffix

    # --- verdicts -------------------------------------------------------------------------

    def stopping(self, error):
        """The report for an exception that ends the run, or None if it only fails a test."""
        self.reserve = None  # give the report room after a MemoryError
        if isinstance(error, (MemoryError, SystemError, RecursionError)):
            depth = self.frames(error.__traceback__)[2]
            if depth > DEEP_RECURSION:
                # With sys.setrecursionlimit raised, Python 3.11 runs out of memory for frames
                # and may raise MemoryError or even SystemError instead of RecursionError.
                return ("limit", "stack", "stack limit: the code recursed %d calls deep and ran out of memory for them (%s)" % (depth, self.describe(error)), self.results)
        if isinstance(error, MemoryError):
            return ("limit", "memory", "memory limit: the code needed more than %d MB (%s)" % (self.job["memory_mb"], self.describe(error)), self.results)
        if isinstance(error, RecursionError):
            return ("limit", "stack", "stack limit: %s" % self.describe(error), self.results)
        if isinstance(error, SystemExit):
            code = _safe_repr(error.code) if error.code is not None else ""
            where = self.where(error.__traceback__)
            return ("incomplete", None, "the code called sys.exit(%s)%s, so the tests did not run to their end" % (code, " at " + where if where else ""), self.results)
        if isinstance(error, OSError) and error.errno == 27:  # EFBIG: RLIMIT_FSIZE
            return ("limit", "file_system", "file size limit: a file grew past %d MB (%s)" % (self.job["max_file_mb"], self.describe(error)), self.results)
        if isinstance(error, self.job["denied"]):
            where = self.where(error.__traceback__)
            return ("denied", None, _safe_str(error) + (", at " + where if where else ""), self.results)
        return None

    def error(self, error, phase):
        return self.stopping(error) or ("error", None, "%s: %s" % (phase, self.describe(error)), self.results)

    # --- running --------------------------------------------------------------------------

    def run(self):
        self.reserve = bytearray(2 * 1024 * 1024)
        job = self.job
        if job["artifact_error"]:
            return ("error", None, "the artifact does not compile: " + job["artifact_error"], [])
        if job["tests_error"]:
            return ("error", None, "the tests do not compile: " + job["tests_error"], [])
        module = type(sys)("artifact")
        module.__dict__["__builtins__"] = job["builtins_module"]
        # Replaces the runner's own module, so the code cannot reach it as __main__.
        sys.modules["artifact"] = sys.modules["__main__"] = module
        namespace = module.__dict__
        try:
            exec(job["artifact_code"], namespace)
        except BaseException as error:
            return self.error(error, "the artifact raised")
        tampered = self.tampering()
        if tampered:
            return ("incomplete", None, tampered, [])
        try:
            exec(job["tests_code"], namespace)
        except AssertionError as error:
            self.results.append(("(top level)", False, self.describe(error)))
        except BaseException as error:
            return self.error(error, "the test code raised")
        stopped = self.run_tests(namespace)
        if stopped:
            return stopped
        if self.job["classes"]:
            # Builtins are not checked again: tests may replace builtins.input on purpose.
            tampered = self.tampering(builtins=False)
            if tampered:
                return ("incomplete", None, tampered, [])
        if not self.results:
            self.results.append(("(top level)", True, None))
        leftover = self.pending_timers()
        if leftover:
            return ("limit", "timers", leftover, self.results)
        failed = any(not passed for _, passed, _ in self.results)
        return ("failed" if failed else "passed", None, None, self.results)

    def tampering(self, builtins=True):
        """Changes the code made to builtins, to the modules the runner relies on or to the
        unittest classes that judge TestCase tests. (Plain attribute assignments on classes
        raise no audit event, so this compares snapshots.) Everything is put back, so the
        runner's own code keeps working either way."""
        changed = []
        if builtins:
            restore(self.job["builtins_module"].__dict__, self.job["builtins"], "", changed)
        for cls, snapshot in self.job["classes"].items():
            current = dict(cls.__dict__)
            for name in set(current) | set(snapshot):
                if current.get(name, changed) is not snapshot.get(name, changed):
                    changed.append(cls.__name__ + "." + name)
                    if name in snapshot:
                        setattr(cls, name, snapshot[name])
                    else:
                        delattr(cls, name)
        for name, module in self.job["modules"].items():
            if sys.modules.get(name) is not module:
                changed.append("sys.modules[%r]" % name)
                sys.modules[name] = module
        if not changed:
            return None
        return "the code replaced %s, so its test results cannot be trusted" % ", ".join(changed[:5])

    def run_tests(self, namespace):
        testcase = self.job["testcase"]
        for name, value in list(namespace.items()):
            if testcase is not None and isinstance(value, type) and issubclass(value, testcase) and value is not testcase:
                stopped = self.run_testcase(value)
            elif name.startswith("test_") and callable(value) and not isinstance(value, type):
                stopped = self.run_function(name, value)
            else:
                continue
            if stopped:
                return stopped
        return None

    def run_function(self, name, function):
        try:
            result = function()
            if type(result).__name__ == "coroutine":  # async def test_...
                import asyncio

                asyncio.run(result)
        except AssertionError as error:
            self.results.append((name, False, self.describe(error)))
        except BaseException as error:
            stopped = self.stopping(error)
            if stopped:
                return stopped
            self.results.append((name, False, self.describe(error)))
        else:
            self.results.append((name, True, None))
        return None

    def run_testcase(self, case):
        import unittest

        recorded = []
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(case)
        suite.run(_recorder(unittest)(recorded))
        for name, passed, error in recorded:
            if isinstance(error, BaseException):
                stopped = self.stopping(error)
                if stopped:
                    return stopped
                error = self.describe(error)
            self.results.append((name, passed, error))
        return None

    def pending_timers(self):
        """A timer or non-daemon thread still alive would fire after the tests; runner.py exits
        with os._exit right after reporting, so it never does, but the run does not count.
        (If the code imported threading, it did so in this thread, which threading therefore
        takes for the main thread.)"""
        alive = []
        threading = sys.modules.get("threading")
        if threading is not None:
            me = _thread.get_ident()
            for thread in threading.enumerate():
                # An executor's idle workers are not pending work: they exit at interpreter shutdown.
                idle_worker = thread.name.startswith("ThreadPoolExecutor-")
                if thread.is_alive() and not thread.daemon and thread.ident != me and not idle_worker:
                    alive.append(thread.name + (" (threading.Timer)" if isinstance(thread, threading.Timer) else ""))
        alarm = _signal.alarm(0)  # cancels it, too
        if alarm:
            alive.append("signal.alarm(%d)" % alarm)
        if _signal.getitimer(_signal.ITIMER_REAL)[0]:
            alive.append("signal.setitimer(ITIMER_REAL)")
            _signal.setitimer(_signal.ITIMER_REAL, 0)
        if not alive:
            return None
        return "%s still pending when the tests ended: %s" % ("a timer or thread was" if len(alive) == 1 else "timers or threads were", ", ".join(alive[:5]))


def _recorder(unittest):
    """A TestResult that keeps exceptions as they are, for Session.describe to explain."""

    def name_of(test):
        method = getattr(test, "_testMethodName", None)
        return "%s.%s" % (type(test).__name__, method) if method else _safe_str(getattr(test, "description", test))

    class Recorder(unittest.TestResult):
        def __init__(self, sink):
            super().__init__()
            self.sink = sink

        def addSuccess(self, test):
            self.sink.append((name_of(test), True, None))

        def addFailure(self, test, err):
            self.sink.append((name_of(test), False, err[1]))

        addError = addFailure

        def addSkip(self, test, reason):
            self.sink.append((name_of(test), True, "skipped: " + _safe_str(reason)))

        def addExpectedFailure(self, test, err):
            self.sink.append((name_of(test), True, "expected failure"))

        def addUnexpectedSuccess(self, test):
            self.sink.append((name_of(test), False, "unexpected success (marked @expectedFailure)"))

        def addSubTest(self, test, subtest, err):
            if err is not None:
                self.sink.append(("%s %s" % (name_of(test), subtest._subDescription()), False, err[1]))

    return Recorder


def work(job, box, go, done):
    """The worker thread's body: wait for the sandbox to be armed, run, hand the report over."""
    # A C stack overflow then prints where it happened before the SIGSEGV. Enabled in this
    # thread because the alternate signal stack it needs for that is per thread.
    faulthandler.enable()
    go.acquire()
    session = Session(job)
    try:
        box.append(session.run())
    except BaseException as error:  # out of memory or stack while reporting, a runner bug, sabotage
        session.reserve = None
        try:
            box.append(session.stopping(error) or ("error", None, "the test runner failed: %r" % error, []))
        except BaseException:
            limit = next((limit for kind, limit in STOPPING if isinstance(error, kind)), None)
            box.append(("limit", limit, type(error).__name__, []) if limit else ("error", None, "the test runner failed", []))
    finally:
        try:
            # Finalizers of the code's objects run here, not later in the main thread, whose
            # stack holds the nonce; then no automatic collection happens anywhere.
            gc.collect()
        finally:
            gc.disable()
            done.release()

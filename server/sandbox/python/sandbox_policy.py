"""What sandboxed Python code may not do: resource limits and an audit hook (PEP 578).

Loaded by runner.py before any generated code runs. The hook decides with functions captured
here, up front, so that code which later replaces os.getcwd or builtins.isinstance cannot change
its decisions. This is defence in depth and gives ordinary mistakes (shelling out, network calls,
writing outside the run directory) a precise verdict. It is NOT the boundary: the runner already
runs inside bubblewrap's namespaces, seccomp filter and host-set limits (README.md), and nothing
depends on this hook holding.
"""

import _stat
import os
import resource

MB = 1024 * 1024
# Address space beyond the measured baseline, for the stdlib modules the code imports (asyncio,
# unittest, typing, decimal, logging and 25 more measure 17 MB together) and a thread stack
# (8 MB each). The code's own data gets memoryMb on top.
IMPORT_HEADROOM = 24 * MB
# Per-file size limit (RLIMIT_FSIZE) and how many files the code may open for writing.
MAX_FILE_BYTES = 4 * MB
MAX_WRITTEN_FILES = 64
MAX_OPEN_FILES = 64

PROCESS_EVENTS = frozenset(
    ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.startfile",
     "subprocess.Popen", "pty.spawn", "webbrowser.open", "os.popen")
)
NETWORK_EVENTS = frozenset(
    ("socket.bind", "socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
     "socket.getnameinfo", "socket.getservbyname", "socket.getservbyport", "socket.sendmsg", "socket.sendto",
     "socket.sethostname", "urllib.Request", "http.client.connect", "ftplib.connect", "smtplib.connect",
     "imaplib.open", "nntplib.connect", "poplib.connect", "telnetlib.Telnet.open")
)
# Introspection that could reach the runner's secrets or switch the hook off, and signals that
# could kill the runner before it reports. (Frames stay allowed: the generated code runs in a
# worker thread whose stack holds nothing secret, and tracebacks must keep working.)
TAMPER_EVENTS = frozenset(
    ("sys.addaudithook", "os.kill", "os.killpg", "signal.pthread_kill", "gc.get_objects", "gc.get_referrers",
     "gc.get_referents", "sys._current_frames", "sys._current_exceptions", "cpython.PyInterpreterState_New",
     "resource.setrlimit", "resource.prlimit",
     # Python 3.12+: tracing and monitoring that reach every thread, the main one included.
     "sys._settraceallthreads", "sys._setprofileallthreads", "sys.monitoring.register_callback", "sys.remote_exec")
)
# ctypes reads and writes raw memory; _posixsubprocess.fork_exec forks without an audit event;
# subinterpreters start without this hook; the test modules poke at interpreter internals.
DENIED_IMPORTS = {
    "ctypes": ("tamper", "importing ctypes (raw memory access)"),
    "_ctypes": ("tamper", "importing ctypes (raw memory access)"),
    "_posixsubprocess": ("processes", "starting a process (_posixsubprocess)"),
    "_xxsubinterpreters": ("tamper", "starting a subinterpreter"),
    "_xxinterpchannels": ("tamper", "starting a subinterpreter"),
    "_testcapi": ("tamper", "importing _testcapi"),
    "_testinternalcapi": ("tamper", "importing _testinternalcapi"),
    "_posixshmem": ("file_system", "shared memory (files in /dev/shm outlive the run)"),
}
WRITE_PATH_EVENTS = frozenset(
    ("os.mkdir", "os.rmdir", "os.remove", "os.chmod", "os.chown", "os.utime", "os.chflags", "os.lchflags",
     "os.setxattr", "os.removexattr", "os.truncate")
)
# Links could point out of the run directory; FIFOs and device nodes are never needed.
ALWAYS_DENIED_FILE_EVENTS = frozenset(("os.link", "os.symlink", "os.mkfifo", "os.mknod"))
READ_PATH_EVENTS = frozenset(("os.listdir", "os.scandir", "os.chdir", "os.getxattr", "os.listxattr"))
DEVICE_FILES = frozenset(("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"))


class SandboxDenied(PermissionError):
    """Raised for every denied action; the code may catch it, but the violation stays recorded."""


def set_limits(cpu_ms, memory_mb):
    """Tightens this process's limits below the ones the host set with prlimit before the
    interpreter started (those are the boundary; these only make the verdict more precise).
    A limit can only be lowered here: each is capped at the current hard limit. Runs after the
    worker thread exists, so its stack is part of the measured baseline."""
    cpu_seconds = -(-cpu_ms // 1000) + 1  # a backstop: runner.py also sets a precise CPU timer
    _lower(resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 1)
    address_space = _address_space() + memory_mb * MB + IMPORT_HEADROOM
    _lower(resource.RLIMIT_AS, address_space, address_space)
    _lower(resource.RLIMIT_FSIZE, MAX_FILE_BYTES, MAX_FILE_BYTES)
    _lower(resource.RLIMIT_NOFILE, MAX_OPEN_FILES, MAX_OPEN_FILES)
    _lower(resource.RLIMIT_CORE, 0, 0)


def _lower(kind, soft, hard):
    current_soft, current_hard = resource.getrlimit(kind)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
    if current_soft != resource.RLIM_INFINITY:
        soft = min(soft, current_soft)
    resource.setrlimit(kind, (min(soft, hard), hard))


def _address_space():
    """The interpreter's current virtual size (VmSize): 22-25 MB on Python 3.11 with the runner
    loaded and the worker thread's 8 MB stack (a bare python3 is about 12 MB)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 64 * MB  # no /proc (the sandbox mounts none): the host's limit decides


def install_audit_hook(run_dir, read_roots):
    """Installs the hook. Returns the list it appends (kind, what) to for every denied action,
    caught or not; runner.py turns the first one into the verdict."""
    violations = []
    denied_error = SandboxDenied
    # Captured now: later changes to these names in os or builtins do not reach the hook.
    _type, _str, _bytes, _int, _len = type, str, bytes, int, len
    getcwd, fspath, stat, is_dir = os.getcwd, os.fspath, os.stat, _stat.S_ISDIR
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
    af_unix = 1
    roots = tuple(read_roots) + (run_dir,)
    written = [0]

    def deny(kind, what):
        if _len(violations) < 16:
            violations.append((kind, what))
        raise denied_error("the sandbox does not allow " + what)

    def absolute(path):
        """The normalized absolute path, None for a file descriptor, "" if unusable. Textual
        normalization is enough because symlinks and hard links cannot be created here."""
        if _type(path) is _int:
            return None
        if path is None:
            path = "."
        if _type(path) is not _str and _type(path) is not _bytes:
            path = fspath(path)  # os.PathLike (pathlib): calls its __fspath__
        if _type(path) is _bytes:
            path = path.decode("utf-8", "surrogateescape")
        if _type(path) is not _str or "\0" in path:
            return ""
        if not path.startswith("/"):
            path = getcwd() + "/" + path
        parts = []
        for part in path.split("/"):
            if part == "..":
                if parts:
                    parts.pop()
            elif part and part != ".":
                parts.append(part)
        return "/" + "/".join(parts)

    def under(path, bases):
        for base in bases:
            if path == base or path.startswith(base + "/"):
                return True
        return False

    def check_write(path, what):
        full = absolute(path)
        if full is not None and not (full.startswith(run_dir + "/") or full in DEVICE_FILES):
            deny("file_system", what + " " + (full or "?") + " (only the current directory is writable)")

    def check_read(path, what):
        full = absolute(path)
        if full is None or full in DEVICE_FILES or under(full, roots):
            # Opening a directory outside the run directory would give a dir_fd that relative
            # opens (whose audit event does not carry the dir_fd) could write through.
            if full and what == "opening" and not under(full, (run_dir,)):
                try:
                    if is_dir(stat(full).st_mode):
                        deny("file_system", "opening the directory " + full)
                except OSError:
                    pass
            return
        deny("file_system", what + " " + (full or "?") + " (only the current directory and the standard library are readable)")

    def hook(event, args):
        if event == "open":
            flags = args[2] if _type(args[2]) is _int else 0
            if flags & write_flags:
                check_write(args[0], "writing")
                written[0] += 1
                if written[0] > MAX_WRITTEN_FILES:
                    deny("file_system", "opening more than %d files for writing" % MAX_WRITTEN_FILES)
            else:
                check_read(args[0], "opening")
        elif event == "import":
            name = args[0]
            denied = DENIED_IMPORTS.get(name if _type(name) is _str else _str.__str__(name))
            if denied is not None:
                deny(denied[0], denied[1])
        elif event in READ_PATH_EVENTS:
            check_read(args[0], "listing" if event != "os.chdir" else "changing into")
        elif event in WRITE_PATH_EVENTS:
            check_write(args[0], "changing")
        elif event == "os.rename":
            check_write(args[0], "renaming")
            check_write(args[1], "renaming to")
        elif event in ALWAYS_DENIED_FILE_EVENTS:
            deny("file_system", "creating links or special files (" + event + ")")
        elif event in PROCESS_EVENTS:
            deny("processes", "starting a process (" + event + ")")
        elif event == "socket.__new__":
            if args[1] != af_unix:  # AF_UNIX socketpairs are asyncio's self-pipe; connect/bind stay denied
                deny("network", "network access (socket)")
        elif event in NETWORK_EVENTS:
            deny("network", "network access (" + event + ")")
        elif event in TAMPER_EVENTS or event.startswith("ctypes."):
            deny("tamper", event)

    import sys

    sys.addaudithook(hook)
    return violations


def disarm_unaudited():
    """Functions that act without raising an audit event: _posixsubprocess.fork_exec forks and
    execs, os.mkfifo and os.mknod create files anywhere. Replace them with functions that raise an
    event the hook denies and records. _posixsubprocess is imported now so that subprocess (and
    asyncio, which imports it) still import; importing it afresh is denied."""
    import _posixsubprocess
    import posix
    import sys

    audit = sys.audit

    def refusing(event):
        def denied(*_args, **_kwargs):
            audit(event)
            raise PermissionError("the sandbox does not allow " + event)

        return denied

    _posixsubprocess.fork_exec = refusing("os.posix_spawn")
    for name in ("mkfifo", "mknod"):
        if hasattr(posix, name):
            setattr(posix, name, refusing("os." + name))
            setattr(os, name, getattr(posix, name))

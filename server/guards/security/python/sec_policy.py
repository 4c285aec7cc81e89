"""What Python code may not reach. Paths are tuples of names: ("os", "system"), ("open",).

Builtins are paths of one name ("eval"); ("builtins", "eval") is normalised to ("eval",).
Values made by pathlib.Path(...) get the pseudo root PATH_OBJECT, so ("<Path>", "read_text")
is a file read however the Path was built.
"""

import builtins

PATH_OBJECT = "<Path>"
GLOBALS_CALL = "<globals()>"

# Other names for the same module: posix is what os is built on, __builtin__ is Python 2.
MODULE_ALIASES = {
    "posix": ("os",),
    "nt": ("os",),
    "__builtin__": ("builtins",),
    "__builtins__": ("builtins",),
    "_io": ("io",),
    "cPickle": ("pickle",),
    "_pickle": ("pickle",),
    "_socket": ("socket",),
    "posixpath": ("os", "path"),
    "ntpath": ("os", "path"),
}

# Modules forbidden as a whole: importing them is a finding, and so is any member used through them.
WHOLE_MODULES = {
    "subprocess": "spawn-process",
    "_posixsubprocess": "spawn-process",
    "pty": "spawn-process",
    "commands": "spawn-process",
    "popen2": "spawn-process",
    "multiprocessing": "spawn-process",
    "asyncio.subprocess": "spawn-process",
    "pexpect": "spawn-process",
    "sh": "spawn-process",
    "plumbum": "spawn-process",
    "ctypes": "eval-code",
    "_ctypes": "eval-code",
    "cffi": "eval-code",
    "runpy": "eval-code",
    "code": "eval-code",
    "codeop": "eval-code",
    "pdb": "eval-code",
    "imp": "eval-code",
    "zipimport": "eval-code",
    "importlib.util": "eval-code",
    "importlib.machinery": "eval-code",
    "importlib.abc": "eval-code",
    "importlib._bootstrap": "eval-code",
    "importlib._bootstrap_external": "eval-code",
    "pickle": "eval-code",
    "marshal": "eval-code",
    "shelve": "eval-code",
    "dill": "eval-code",
    "cloudpickle": "eval-code",
    "jsonpickle": "eval-code",
    "joblib": "eval-code",
    "socket": "network",
    "ssl": "network",
    "socketserver": "network",
    "asyncore": "network",
    "asynchat": "network",
    "urllib.request": "network",
    "urllib2": "network",
    "urllib3": "network",
    "http.client": "network",
    "http.server": "network",
    "httplib": "network",
    "requests": "network",
    "httpx": "network",
    "aiohttp": "network",
    "ftplib": "network",
    "smtplib": "network",
    "smtpd": "network",
    "telnetlib": "network",
    "poplib": "network",
    "imaplib": "network",
    "nntplib": "network",
    "xmlrpc": "network",
    "xmlrpclib": "network",
    "webbrowser": "network",
    "paramiko": "network",
    "websocket": "network",
    "websockets": "network",
    "pycurl": "network",
    "wsgiref.simple_server": "network",
    "shutil": "filesystem",
    "tempfile": "filesystem",
    "glob": "filesystem",
    "fileinput": "filesystem",
    "filecmp": "filesystem",
    "dbm": "filesystem",
    "mmap": "filesystem",
    "fcntl": "filesystem",
    "dotenv": "environment",
    "logging.handlers": "filesystem",
}

# Members forbidden in modules that are otherwise fine to use (os.path, sys.argv, io.StringIO, …).
_MEMBERS = {
    "spawn-process": [
        "os.system", "os.popen", "os.popen2", "os.popen3", "os.popen4", "os.fork", "os.forkpty",
        "os.posix_spawn", "os.posix_spawnp", "os.startfile", "platform.popen",
        "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
        "concurrent.futures.ProcessPoolExecutor",
    ],
    "exit-process": ["os.kill", "os.killpg", "os._exit", "os.abort", "sys.exit", "exit", "quit"],
    "environment": ["os.environ", "os.environb", "os.getenv", "os.getenvb", "os.putenv", "os.unsetenv"],
    "filesystem": [
        "open", "file", "io.open", "io.open_code", "io.FileIO", "codecs.open",
        "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.renames", "os.replace",
        "os.mkdir", "os.makedirs", "os.chmod", "os.lchmod", "os.fchmod", "os.chown", "os.lchown",
        "os.fchown", "os.chdir", "os.fchdir", "os.chroot", "os.listdir", "os.scandir", "os.walk",
        "os.fwalk", "os.open", "os.fdopen", "os.read", "os.write", "os.link", "os.symlink",
        "os.readlink", "os.truncate", "os.ftruncate", "os.mkfifo", "os.mknod", "os.utime",
        "os.sendfile", "os.memfd_create", "os.openpty", "logging.FileHandler",
    ],
    "eval-code": [
        "eval", "exec", "compile", "__import__", "execfile", "reload", "breakpoint",
        "importlib.reload", "importlib.__import__", "importlib.invalidate_caches",
        "sys.modules", "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile",
        "sys.meta_path", "sys.path_hooks", "sys.path_importer_cache", "sys.addaudithook",
        "types.FunctionType", "types.LambdaType", "types.CodeType",
        "yaml.unsafe_load", "yaml.unsafe_load_all", "yaml.full_load", "yaml.full_load_all",
    ],
    "obfuscation": [
        "inspect.currentframe", "inspect.stack", "inspect.getouterframes", "inspect.getinnerframes",
        "inspect.trace", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    ],
    "network": ["urllib.urlopen", "urllib.urlretrieve", "urllib.URLopener"],
}
MEMBER_RULES = {name: rule for rule, names in _MEMBERS.items() for name in names}

# os.execv, os.execvpe, …, os.spawnl, os.spawnvpe, …
_OS_PREFIXES = (("exec", "spawn-process"), ("spawn", "spawn-process"))

# Path methods that touch the file system; the rest (joinpath, with_suffix, name, …) is string work.
PATH_IO_METHODS = {
    "read_text", "read_bytes", "write_text", "write_bytes", "open", "unlink", "rmdir", "mkdir",
    "touch", "rename", "replace", "chmod", "lchmod", "iterdir", "glob", "rglob", "symlink_to",
    "hardlink_to", "link_to", "readlink", "owner", "group",
}
# Path members that give another Path.
PATH_RETURNING = {
    "parent", "with_name", "with_stem", "with_suffix", "joinpath", "resolve", "absolute",
    "expanduser", "relative_to", "home", "cwd",
}
PATH_CONSTRUCTORS = {
    ("pathlib", "Path"), ("pathlib", "PurePath"), ("pathlib", "PosixPath"), ("pathlib", "WindowsPath"),
    ("pathlib", "PurePosixPath"), ("pathlib", "PureWindowsPath"),
}

# Attributes that walk from any object to interpreter internals (frames, globals, every class).
DANGEROUS_ATTRIBUTES = {
    "__subclasses__", "__globals__", "__builtins__", "__code__", "func_globals", "func_code",
    "f_globals", "f_locals", "f_builtins", "f_back", "gi_frame", "gi_code", "cr_frame", "cr_code",
    "ag_frame", "tb_frame", "__loader__",
}

# Modules whose members are mostly harmless but which give everything when passed around.
CAPABILITY_ROOTS = {("os",), ("sys",), ("builtins",), ("importlib",), (GLOBALS_CALL,)}

# Star imports from these make every later name a possible capability.
STAR_FORBIDDEN = {"os", "sys", "builtins", "importlib", "io", "pathlib", "codecs", "asyncio", "inspect", "gc", "types", "platform"}


# Names that resolve to builtins when nothing in the code binds them. `exit`, `quit` and `help`
# come from the site module (absent under -S, present when generated code runs); the rest is Python 2.
BUILTIN_NAMES = frozenset(dir(builtins)) | {"exit", "quit", "help", "copyright", "credits", "license", "file", "execfile", "reload", "__builtins__"}


def normalize(path):
    """Applies MODULE_ALIASES and folds builtins.X into X."""
    if not path:
        return path
    alias = MODULE_ALIASES.get(path[0])
    if alias is not None:
        path = alias + tuple(path[1:])
    if path[0] == "builtins" and len(path) > 1:
        path = tuple(path[1:])
    return tuple(path)


def whole_module(path):
    """The shortest prefix of the path that is a module forbidden as a whole, as a tuple."""
    for length in range(1, len(path) + 1):
        if ".".join(path[:length]) in WHOLE_MODULES:
            return tuple(path[:length])
    return None


def forbidden(path):
    """(key, rule) for the shortest forbidden prefix of the path, or None."""
    if not path:
        return None
    module = whole_module(path)
    if module is not None:
        if len(path) == len(module):
            return None  # the module itself: importing it is the finding, see import rules
        return ".".join(path[: len(module) + 1]), WHOLE_MODULES[".".join(module)]
    if path[0] == PATH_OBJECT or tuple(path[:2]) in PATH_CONSTRUCTORS:
        offset = 1 if path[0] == PATH_OBJECT else 2
        method = path[offset] if len(path) > offset else None
        if method in PATH_IO_METHODS:
            return "Path." + method, "filesystem"
        return None
    if path[0] == GLOBALS_CALL:
        # globals().update(...) / .setdefault / .pop rebind module names, __builtins__ included
        if len(path) > 1 and path[1] not in ("get", "keys", "items", "values", "copy", "__contains__"):
            return "globals()." + path[1], "obfuscation"
        return None
    for length in range(1, len(path) + 1):
        key = ".".join(path[:length])
        rule = MEMBER_RULES.get(key)
        if rule is not None:
            return key, rule
    if path[0] == "os" and len(path) > 1:
        for prefix, rule in _OS_PREFIXES:
            if path[1].startswith(prefix):
                return "os." + path[1], rule
    return None


def capability_rule(path):
    """The rule under which passing this value around is a finding, or None."""
    if path in CAPABILITY_ROOTS:
        return "obfuscation"
    module = whole_module(path)
    if module is not None and len(module) == len(path):
        return WHOLE_MODULES[".".join(module)]
    return None


def is_module_of_interest(path):
    return whole_module(path) is not None or ".".join(path) in STAR_FORBIDDEN

import { describe, expect, it } from "vitest";
import { analyzePython } from "./analyze-python";
import { UNPARSEABLE, type Finding } from "./finding";

async function constructs(code: string): Promise<string[]> {
  const result = await analyzePython(code);
  if ("unavailable" in result) throw new Error(result.unavailable);
  return result.map((finding) => `${finding.construct}@${finding.line}`);
}

describe("analyzePython", () => {
  it.each([
    ["os through posix", "import posix\nposix.system('x')", ["os.system@2"]],
    ["os re-exported by another module", "import shutil\nshutil.os.system('x')", ["import shutil@1", "os.system@2"]],
    ["os re-exported by os.path", "from os import path\npath.os.system('x')", ["os.system@2"]],
    ["__getattribute__ on a module", "import os\nos.__getattribute__('system')('ls')", ["os.system@2"]],
    ["object.__getattribute__ with a folded name", "import os\nobject.__getattribute__(os, 'sys' + 'tem')('ls')", ["os.system@2"]],
    ["a reversed name", "import os\ngetattr(os, 'metsys'[::-1])('ls')", ["os.system@2"]],
    ["a base64 name", "import os, base64\ngetattr(os, base64.b64decode('c3lzdGVt').decode())('ls')", ["os.system@2"]],
    ["map(chr, ...) joined", "import os\ngetattr(os, ''.join(map(chr, [115, 121, 115, 116, 101, 109])))('ls')", ["os.system@2"]],
    ["a folded constant name", "import os\nNAME = 'po' + 'pen'\ngetattr(os, NAME)('x')", ["os.popen@3"]],
    ["getattr with a computed name on os", "import os\ndef run(name):\n    return getattr(os, name)", ["getattr(os, <computed>)@3"]],
    ["os.__dict__ lookup", "import os\nos.__dict__['system']('x')", ["os.system@2"]],
    ["vars(os) with a computed key", "import os\nvars(os)[name]", ["vars(os)[<computed>]@2"]],
    ["globals() with a computed key", "globals()[name]", ["globals()[<computed>]@1"]],
    ["globals() aliased", "g = globals()\ng['__builtins__']", ["__builtins__@2"]],
    ["globals().update", "globals().update({'x': 1})", ["globals().update@1"]],
    ["builtins through their module", "import builtins as b\nb.__dict__['eval']('1')", ["eval@2"]],
    ["builtins imported by name", "from builtins import open as o\no('x')", ["open@1"]],
    ["a module passed on", "import os\ndef f(m=os):\n    return m", ["os@2"]],
    ["an alias of a module", "import os\no = os\no.system('x')", ["os.system@3"]],
    ["import_module of a forbidden module", "from importlib import import_module as im\nim('subprocess').run('x')", ["importlib.import_module('subprocess')@2", "subprocess.run@2"]],
    ["import_module of a folded name", "import importlib\nimportlib.import_module('o' + 's').system('x')", ["os.system@2"]],
    ["frames", "import sys\ns = sys._getframe().f_globals", ["sys._getframe@2", "f_globals@2"]],
    ["a format-string gadget", "'{0.__init__.__globals__}'.format(f)", ["__globals__ in a format string@1"]],
    ["builtins monkey-patched", "import builtins\nbuiltins.print = lambda *a: None", ["assignment to builtins.print@2"]],
    ["setattr on a module", "import os\nsetattr(os, 'getcwd', None)", ["setattr(os)@2"]],
    ["yaml.load without a safe loader", "import yaml\nyaml.load(s)", ["yaml.load@2"]],
    ["a file-backed sqlite database", "import sqlite3\nsqlite3.connect('app.db')", ["sqlite3.connect@2"]],
    ["a log file", "import logging\nlogging.basicConfig(filename='x.log')", ["logging.basicConfig(filename=...)@2"]],
    ["a process pool", "from concurrent.futures import ProcessPoolExecutor", ["concurrent.futures.ProcessPoolExecutor@1"]],
    ["asyncio subprocesses", "import asyncio\nasyncio.create_subprocess_shell('ls')", ["asyncio.create_subprocess_shell@2"]],
    ["a Path parameter", "import pathlib\ndef load(p: pathlib.Path):\n    return p.read_bytes()", ["Path.read_bytes@3"]],
    ["a star import from os", "from os import *", ["from os import *@1"]],
    ["the builtin open under a class with an open method", "class F:\n    def open(self):\n        return open('x')", ["open@3"]],
    ["the builtin after a comprehension variable", "[open for open in range(3)]\nopen('x')", ["open@2"]],
    ["the builtin rebound to itself", "open = open\nopen('/etc/passwd')", ["open@1"]],
    ["the builtin wrapped and rebound", "open = (lambda f: f)(open)\nopen('x')", ["open@1"]],
  ])("finds %s", async (_name, code, expected) => {
    const found = await constructs(code);
    expect(found.sort()).toEqual([...expected].sort());
  });

  it.each([
    ["a module-level rebinding", "def f():\n    global open\n    open = 1\nopen('x')"],
    ["safe loaders", "import yaml\nyaml.load(s, Loader=yaml.SafeLoader)\nyaml.safe_load(s)"],
    ["getattr on a harmless module", "import math\ngetattr(math, name)(1)\nvars(math)[name]"],
    ["importing computational modules", "import random, string, itertools, functools, heapq, bisect, decimal, fractions, statistics, datetime, time, enum, abc, copy, hashlib, uuid, struct, queue, contextlib, operator, threading"],
    ["a thread pool and asyncio.run", "from concurrent.futures import ThreadPoolExecutor\nimport asyncio\nasyncio.run(main())"],
    ["logging to the console", "import logging\nlogging.basicConfig(level=logging.INFO)\nlog = logging.getLogger(__name__)"],
    ["the main guard", "if __name__ == '__main__':\n    main()"],
    ["a class attribute write", "class A:\n    pass\nA.x = 1"],
    ["an undefined name that shares a module's name", "exec_result = code"],
    ["a later module-level definition used by a function", "def g():\n    return open('x')\nopen = lambda p: p"],
    ["loop and exception variables named like builtins", "for open in range(3):\n    open + 1\ntry:\n    pass\nexcept Exception as exec:\n    exec.args"],
  ])("passes %s", async (_name, code) => {
    expect(await constructs(code)).toEqual([]);
  });

  it("reports a syntax error as one UNPARSEABLE finding", async () => {
    const result = (await analyzePython("import os\nos.system(\n")) as Finding[];
    expect(result).toEqual([expect.objectContaining({ rule: UNPARSEABLE })]);
  });

  it("reports python3 missing as unavailable", async () => {
    expect(await analyzePython("x = 1", { pythonExecutable: "/nonexistent/python3" })).toEqual({ unavailable: expect.stringContaining("python3 is not installed"), interpreterMissing: true });
  });

  it("passes allow lists to the analyser", async () => {
    expect(await analyzePython("import os\nos.system('x')\nos.remove('y')", { allowCalls: ["os.system"] })).toEqual([expect.objectContaining({ construct: "os.remove", line: 3, column: 1, rule: "filesystem" })]);
  });
});

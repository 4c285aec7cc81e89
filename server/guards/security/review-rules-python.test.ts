/**
 * The Python checks for what a reviewer must see: endless loops, constant memory bombs, unittest
 * tampering, class pollution through a recursive merge. Fixture-level cases live in
 * fixtures/hostile-review-python.ts and fixtures/benign-review.ts (security-guard.test.ts).
 */
import { describe, expect, it } from "vitest";
import { analyzePython } from "./analyze-python";

async function found(code: string, options: { allowCalls?: string[]; allowModules?: string[] } = {}): Promise<string[]> {
  const result = await analyzePython(code, options);
  if ("unavailable" in result) throw new Error(result.unavailable);
  return result.map((finding) => `${finding.rule}: ${finding.construct}@${finding.line}:${finding.column}`);
}

describe("endless loops", () => {
  it.each([
    ["a break only in a nested loop's body", "while True:\n    for x in xs:\n        break", "while True@1:1"],
    ["a raise caught by a bare except in the loop", "while 1:\n    try:\n        raise ValueError\n    except:\n        pass", "while 1@1:1"],
    ["a return in a lambda", "while True:\n    f = lambda: 1", "while True@1:1"],
    ["a yield in a nested generator", "while True:\n    def g():\n        yield 1", "while True@1:1"],
    ["a negated falsy constant", "while not 0:\n    pass", "while not 0@1:1"],
    ["a constant comparison", "while 1 == 1:\n    pass", "while 1 == 1@1:1"],
    ["a name bound once to a constant", "FOREVER = True\nwhile FOREVER:\n    pass", "while FOREVER@2:1"],
    ["itertools.repeat without a count", "import itertools\nfor x in itertools.repeat(1):\n    pass", "for … in itertools.repeat() with no way out@2:1"],
    ["count imported under another name", "from itertools import count as c\nfor i in c(5):\n    pass", "for … in itertools.count() with no way out@2:1"],
    ["an indented loop, with its column", "def f():\n    while True:\n        pass", "while True@2:5"],
    ["a break in a branch never taken", "while True:\n    if False:\n        break\n    if 1:\n        pass\n    else:\n        return", "while True@1:1"],
  ])("finds %s", async (_name, code, where) => {
    const [construct, at] = where.split("@") as [string, string];
    const expected = construct.startsWith("for") ? `non-termination: ${construct}@${at}` : `non-termination: ${construct} with no way out@${at}`;
    expect(await found(code)).toEqual([expected]);
  });

  it.each([
    ["a break in the nested loop's else", "while True:\n    for x in xs:\n        pass\n    else:\n        break"],
    ["a raise caught only for another type", "while True:\n    try:\n        raise KeyError\n    except ValueError:\n        pass"],
    ["a raise in the handler", "while True:\n    try:\n        step()\n    except Exception:\n        raise"],
    ["a return in a try's finally", "def f():\n    while True:\n        try:\n            pass\n        finally:\n            return 1"],
    ["an async for inside", "async def f(source):\n    while True:\n        async for x in source:\n            pass"],
    ["yield from", "def g(inner):\n    while True:\n        yield from inner"],
    ["exit()", "while True:\n    exit(0)"],
    ["input() ending with EOFError", "while True:\n    line = input()\n    print(line)"],
    ["a name rebound in the loop", "go = True\nwhile go:\n    go = step()"],
    ["a name rebound through global", "running = True\ndef stop():\n    global running\n    running = False\nwhile running:\n    pass"],
    ["a falsy constant", "while 0:\n    pass\nwhile False:\n    pass"],
    ["a break in the else of a data-dependent if", "while True:\n    if x:\n        step()\n    else:\n        break"],
    ["iter with a sentinel int() reaches", "for x in iter(int, 0):\n    pass"],
    ["cycle of an empty list", "import itertools\nfor x in itertools.cycle([]):\n    pass"],
    ["count over a bounded zip", "import itertools\nfor i, x in zip(itertools.count(), xs):\n    pass"],
  ])("passes %s", async (_name, code) => {
    expect((await found(code)).filter((item) => item.startsWith("non-termination"))).toEqual([]);
  });

  it("lets an endless loop through with allowCalls: endless-loop", async () => {
    expect(await found("while True:\n    pass", { allowCalls: ["endless-loop"] })).toEqual([]);
  });
});

describe("memory bombs", () => {
  const limit = 256 * 1024 * 1024;

  it("reports above 256 MiB and passes at it", async () => {
    expect(await found(`b = bytearray(${limit})`)).toEqual([]);
    expect(await found(`b = bytearray(${limit + 1})`)).toEqual(["memory-exhaustion: bytearray(n) of ~256 MiB@1:5"]);
    expect(await found(`l = [0] * ${limit / 8}`)).toEqual([]);
    expect(await found(`l = [None] * ${limit / 8 + 1}`)).toEqual(["memory-exhaustion: list * n of ~256 MiB@1:5"]);
  });

  it.each([
    ["n * str", "s = 10**10 * 'a'", "str * n of ~9.3 GiB"],
    ["a tuple times n", "t = (0, 0) * 10**9", "tuple * n of ~15 GiB"],
    ["a starred range", "l = [*range(10**9)]", "[*range(n)] of ~7.5 GiB"],
    ["set(range(n))", "s = set(range(2, 10**9))", "set(range(n)) of ~7.5 GiB"],
    ["bytes(range(n))", "b = bytes(range(10**9))", "bytes(n) of ~954 MiB"],
    ["str.ljust", "s = ''.ljust(10**9)", "str.ljust of ~954 MiB"],
    ["numpy.zeros with a shape", "import numpy as np\na = np.zeros((10**5, 10**5))", "numpy.zeros of ~75 GiB"],
    ["rows allocated by a comprehension", "g = [[0] * 10**5 for _ in range(10**5)]", "list comprehension of ~75 GiB"],
    ["int() of a float literal", "b = bytearray(int(1e10))", "bytearray(n) of ~9.3 GiB"],
    ["a shift past the cap", "b = b'x' * (1 << 10**6)", "bytes * n of more than 1 ZiB"],
    ["a name built from names", "KB = 1024\nGB = KB * KB * KB\nb = bytearray(4 * GB)", "bytearray(n) of ~4 GiB"],
  ])("finds %s", async (_name, code, construct) => {
    expect((await found(code)).map((item) => item.replace(/@.*/, ""))).toEqual([`memory-exhaustion: ${construct}`]);
  });

  it.each([
    ["a float size (a TypeError, not an allocation)", "b = bytearray(1e10)"],
    ["a size from a parameter", "def f(n):\n    return [bytearray(n), 'x' * n, [0] * (n * 10**9)]"],
    ["a range that is only iterated", "for i in range(10**12):\n    break"],
    ["a list of lists made small", "g = [[0] * 1000 for _ in range(1000)]"],
    ["a negative count", "s = 'a' * -(10**10)"],
  ])("passes %s", async (_name, code) => {
    expect((await found(code)).filter((item) => item.startsWith("memory-exhaustion"))).toEqual([]);
  });

  it("lets a big allocation through with allowCalls: large-allocation", async () => {
    expect(await found("b = bytearray(10**10)", { allowCalls: ["large-allocation"] })).toEqual([]);
  });
});

describe("tampering with the assertion helpers", () => {
  it.each([
    ["unittest imported under another name", "import unittest as ut\nut.TestCase.assertIs = None", "assignment to unittest.TestCase.assertIs@2:1"],
    ["the TestCase class replaced", "import unittest\nunittest.TestCase = object", "assignment to unittest.TestCase@2:1"],
    ["an assertion deleted", "import unittest\ndel unittest.TestCase.assertRaises", "deletion of unittest.TestCase.assertRaises@2:5"],
    ["pytest.fail replaced", "import pytest\npytest.fail = print", "assignment to pytest.fail@2:1"],
    ["failureException changed in a test class", "import unittest\nclass T(unittest.TestCase):\n    failureException = KeyError", "T.failureException redefined@3:5"],
    ["run overridden in a subclass of a local test base", "import unittest\nclass Base(unittest.TestCase):\n    pass\nclass T(Base):\n    def run(self, result=None):\n        return result", "T.run redefined@5:5"],
    ["a test class's assertion replaced from outside", "import unittest\nclass T(unittest.TestCase):\n    pass\nT.assertTrue = print", "assignment to T.assertTrue@4:1"],
    ["patch.object on TestCase", "from unittest import mock, TestCase\nmock.patch.object(TestCase, 'assertEqual')", "object(unittest.TestCase)@2:1"],
    ["monkeypatch.setattr by name", "def test_x(monkeypatch):\n    monkeypatch.setattr('unittest.TestCase.assertTrue', print)", "setattr('unittest.TestCase.assertTrue')@2:5"],
    ["setattr on self with an assertion's name", "import unittest\nclass T(unittest.TestCase):\n    def setUp(self):\n        setattr(self, 'assertIn', print)", "setattr(T)@4:9"],
  ])("finds %s", async (_name, code, where) => {
    expect(await found(code)).toContain(`test-tampering: ${where}`);
  });

  it("escapes control characters in the construct, so a finding stays one feedback line", async () => {
    expect(await found("import unittest\ngetattr(unittest, 'Test\\nCase').x = 1")).toEqual(["test-tampering: assignment to unittest.Test\\u000aCase.x@2:1"]);
  });

  it.each([
    ["settings of a test class", "import unittest\nclass T(unittest.TestCase):\n    maxDiff = None\n    longMessage = True\nunittest.TestCase.maxDiff = None"],
    ["a class that is not a test with assert methods", "class Checker:\n    def assertEqual(self, a, b):\n        return a == b\nChecker.assertEqual = None"],
    ["helpers and attributes on self in a test class", "import unittest\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.data = []\n        setattr(self, 'extra', 1)\n    def assertSorted(self, xs):\n        self.assertEqual(xs, sorted(xs))"],
    ["patching the code's own modules", "from unittest import mock\nmock.patch('app.db.connect')\nmock.patch.object(service, 'fetch')"],
    ["using the helpers", "import unittest\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(1, 1)\nunittest.main()"],
  ])("passes %s", async (_name, code) => {
    expect(await found(code)).toEqual([]);
  });
});

describe("recursive merges", () => {
  it("finds a merge that writes through __dict__ and recurses through getattr", async () => {
    const code = "def merge(dst, src):\n    for k, v in src.items():\n        if isinstance(v, dict):\n            merge(getattr(dst, k), v)\n        else:\n            dst.__dict__[k] = v";
    expect(await found(code)).toEqual(["prototype-pollution: recursive merge via __dict__[k]@6:13"]);
  });

  it("finds a method that recurses through self", async () => {
    const code = "class Loader:\n    def load(self, obj, data):\n        for key in data:\n            if isinstance(data[key], dict):\n                self.load(getattr(obj, key), data[key])\n            else:\n                setattr(obj, key, data[key])";
    expect(await found(code)).toEqual(["prototype-pollution: recursive merge via setattr(…, key)@7:17"]);
  });

  it.each([
    ["a dunder comparison", "if k == '__class__':\n            continue"],
    ["an allowlist", "if k not in FIELDS:\n            continue"],
    ["a startswith check", "if k.startswith('__'):\n            continue"],
  ])("passes a merge with %s", async (_name, guard) => {
    const code = `def merge(dst, src):\n    for k, v in src.items():\n        ${guard}\n        if isinstance(v, dict):\n            merge(getattr(dst, k), v)\n        else:\n            setattr(dst, k, v)`;
    expect(await found(code)).toEqual([]);
  });

  it("passes a recursive copy into dicts (keys are not attributes)", async () => {
    const code = "def merge(dst, src):\n    for k, v in src.items():\n        if isinstance(v, dict):\n            merge(dst.setdefault(k, {}), v)\n        else:\n            dst[k] = v";
    expect(await found(code)).toEqual([]);
  });

  it("lets a recursive merge through with allowCalls: recursive-merge", async () => {
    const code = "def merge(dst, src):\n    for k, v in src.items():\n        merge(getattr(dst, k), v)\n        setattr(dst, k, v)";
    expect(await found(code)).toHaveLength(1);
    expect(await found(code, { allowCalls: ["recursive-merge"] })).toEqual([]);
  });
});

describe("time on hostile input stays bounded", () => {
  // Roomy limits: the machine is shared and loaded; the point is no blow-up, not speed.
  it.each([
    ["a power tower of 200 tens", `x = bytearray(${"10 ** ".repeat(200)}10)\n`],
    ["a shift by a googol", "x = b'a' * (1 << 10**100)\n"],
    ["3000 names each built from the previous twice", `${Array.from({ length: 3000 }, (_, i) => (i === 0 ? "a0 = 10" : `a${i} = a${i - 1} * a${i - 1}`)).join("\n")}\nb = bytearray(a2999)\n`],
    ["3000 strings each built from the previous twice", `${Array.from({ length: 3000 }, (_, i) => (i === 0 ? "s0 = 'ab'" : `s${i} = s${i - 1} * 2 + s${i - 1}`)).join("\n")}\nt = s2999 * 10\n`],
    ["3000 sibling endless loops", "while True:\n    x = 1\n".repeat(3000)],
    ["19 nested endless loops", `${Array.from({ length: 19 }, (_, i) => `${" ".repeat(i * 4)}while True:`).join("\n")}\n${" ".repeat(76)}pass\n`],
  ])("%s", async (_name, code) => {
    const started = performance.now();
    const result = await analyzePython(code, { timeoutMs: 30_000 });
    expect("unavailable" in result).toBe(false);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("still finds the bomb in a power tower it can fold", async () => {
    expect(await found("x = bytearray(10**10**10**10)")).toEqual(["memory-exhaustion: bytearray(n) of more than 1 ZiB@1:5"]);
  });
});

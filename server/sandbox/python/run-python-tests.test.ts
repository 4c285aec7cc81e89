import { describe, expect, it } from "vitest";
import { runPythonTests } from "./run-python-tests";
import { outputOf, runPython } from "./test-support";

const LRU_WITHOUT_GET = `
from collections import OrderedDict

class LRUCache:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.items = OrderedDict()

    def put(self, key, value):
        self.items[key] = value
        self.items.move_to_end(key)
        if len(self.items) > self.capacity:
            self.items.popitem(last=False)
`;

const LRU_TESTS = `
def test_put():
    cache = LRUCache(2)
    cache.put(1, 1)
    assert len(cache.items) == 1

def test_get():
    cache = LRUCache(2)
    cache.put(1, 1)
    assert cache.get(1) == 1
`;

const PRIME_TESTS = `
def test_small_primes():
    assert [n for n in range(20) if is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19]

def test_not_prime():
    assert is_prime(1) is False
    assert is_prime(91) is False
`;

describe("runPythonTests: verdicts", () => {
  it("passes when every test passes", async () => {
    const outcome = await runPython("def add(a, b):\n    return a + b\n", "def test_add():\n    assert add(1, 2) == 3\n\ndef test_neg():\n    assert add(-1, 1) == 0\n");
    expect(outcome).toMatchObject({ status: "passed", tests: [{ name: "test_add", passed: true }, { name: "test_neg", passed: true }] });
  });

  it("fails with the assert's source, both values and the line when a bare assert fails", async () => {
    const outcome = await runPython("def add(a, b):\n    return a + b\n", "def test_add():\n    assert add(1, 2) == 4\n");
    expect(outcome).toMatchObject({ status: "failed", tests: [{ name: "test_add", passed: false, message: "assert add(1, 2) == 4 (left: 3, right: 4) (tests.py line 2)" }] });
  });

  it("reports 000's LRU cache without get as a failing test_get", async () => {
    const outcome = await runPython(LRU_WITHOUT_GET, LRU_TESTS);
    expect(outcome.status).toBe("failed");
    if (outcome.status !== "failed") return;
    expect(outcome.tests).toEqual([
      { name: "test_put", passed: true },
      { name: "test_get", passed: false, message: "AttributeError: 'LRUCache' object has no attribute 'get' (tests.py line 10)" },
    ]);
  });

  it("passes a correct prime validator and explains a wrong one", async () => {
    const correct = "def is_prime(n):\n    if n < 2:\n        return False\n    return all(n % d for d in range(2, int(n ** 0.5) + 1))\n";
    expect(await runPython(correct, PRIME_TESTS)).toMatchObject({ status: "passed" });
    const wrong = "def is_prime(n):\n    return n > 0 and all(n % d for d in range(2, n))\n";
    const outcome = await runPython(wrong, PRIME_TESTS);
    expect(outcome).toMatchObject({
      status: "failed",
      tests: [
        { name: "test_small_primes", passed: false, message: expect.stringContaining("right: [2, 3, 5, 7, 11, 13, 17, 19]") },
        { name: "test_not_prime", passed: false, message: "assert is_prime(1) is False (left: True, right: False) (tests.py line 6)" },
      ],
    });
  });

  it("keeps assertion messages, and explains other asserts and exceptions with file and line", async () => {
    const outcome = await runPython(
      "def div(a, b):\n    return a / b\n",
      "def test_message():\n    assert div(4, 2) == 3, 'four halves should be three'\n\ndef test_not():\n    assert not div(1, 1)\n\ndef test_raises():\n    div(1, 0)\n",
    );
    expect(outcome).toMatchObject({
      status: "failed",
      tests: [
        { name: "test_message", message: "four halves should be three (tests.py line 2)" },
        { name: "test_not", message: "assert not div(1, 1) (tests.py line 5)" },
        { name: "test_raises", message: "ZeroDivisionError: division by zero (artifact.py line 2, called from tests.py line 8)" },
      ],
    });
  });

  it("counts a failing top-level assert as a failed test named (top level), and top-level-only tests as one test", async () => {
    expect(await runPython("x = 1", "assert x == 2\n")).toMatchObject({
      status: "failed",
      tests: [{ name: "(top level)", passed: false, message: "assert x == 2 (left: 1, right: 2) (tests.py line 1)" }],
    });
    expect(await runPython("x = 1", "assert x == 1\n")).toMatchObject({ status: "passed", tests: [{ name: "(top level)", passed: true }] });
  });

  it("runs unittest.TestCase classes, with fixtures, subtests and skips", async () => {
    const tests = `
import unittest
from unittest import skip

class CacheTest(unittest.TestCase):
    def setUp(self):
        self.cache = LRUCache(2)

    def test_put(self):
        self.cache.put(1, 1)
        self.assertEqual(len(self.cache.items), 1)

    def test_get(self):
        self.cache.put(1, 1)
        self.assertEqual(self.cache.get(1), 1)

    def test_sizes(self):
        for size in range(3):
            with self.subTest(size=size):
                self.assertLess(size, 2)

    @skip("skipped on purpose")
    def test_later(self):
        pass

def test_plain():
    assert LRUCache(1).capacity == 1
`;
    const outcome = await runPython(LRU_WITHOUT_GET, tests);
    expect(outcome).toMatchObject({
      status: "failed",
      tests: [
        { name: "CacheTest.test_get", passed: false, message: "AttributeError: 'LRUCache' object has no attribute 'get' (tests.py line 15)" },
        { name: "CacheTest.test_later", passed: true, message: "skipped: skipped on purpose" },
        { name: "CacheTest.test_put", passed: true },
        { name: "CacheTest.test_sizes (size=2)", passed: false, message: "2 not less than 2 (tests.py line 20)" },
        { name: "test_plain", passed: true },
      ],
    });
  });

  it("lets the tests replace builtins themselves (input, for example)", async () => {
    const tests = "import builtins, unittest\nbuiltins.input = lambda prompt='': '41'\n\nclass T(unittest.TestCase):\n    def test_answer(self):\n        self.assertEqual(answer(), 42)\n";
    expect(await runPython("def answer():\n    return int(input()) + 1\n", tests)).toMatchObject({ status: "passed" });
  });

  it("awaits async test functions", async () => {
    const outcome = await runPython(
      "import asyncio\n\nasync def double(x):\n    await asyncio.sleep(0)\n    return 2 * x\n",
      "async def test_double():\n    assert await double(2) == 4\n\nasync def test_wrong():\n    assert await double(2) == 5\n",
    );
    expect(outcome).toMatchObject({ status: "failed", tests: [{ name: "test_double", passed: true }, { name: "test_wrong", passed: false }] });
  });

  it("reports syntax errors and exceptions before the tests as errors", async () => {
    expect(await runPython("def f(:\n    pass\n", "def test_a():\n    pass\n")).toMatchObject({
      status: "error",
      message: "the artifact does not compile: SyntaxError: invalid syntax (artifact.py line 1)",
    });
    expect(await runPython("x = 1\n", "def test_a(:\n")).toMatchObject({ status: "error", message: expect.stringMatching(/^the tests do not compile: SyntaxError: .* \(tests\.py line 1\)$/) });
    expect(await runPython("import json\nCONFIG = json.loads('{')\n", "def test_a():\n    pass\n")).toMatchObject({
      status: "error",
      message: expect.stringMatching(/^the artifact raised: JSONDecodeError: .* \(artifact\.py line 2\)$/),
    });
    expect(await runPython("x = 1\n", "from solution import x\n")).toMatchObject({
      status: "error",
      message: "the test code raised: ModuleNotFoundError: No module named 'solution' (tests.py line 1)",
    });
  });
});

describe("runPythonTests: ordinary Python works", () => {
  it("imports the standard library, and captures printed output and tracebacks", async () => {
    const artifact = `
import abc, asyncio, bisect, collections, concurrent.futures, csv, dataclasses, datetime, decimal, enum
import fractions, functools, heapq, io, itertools, json, logging, math, operator, pathlib, random, re
import statistics, string, tempfile, textwrap, threading, traceback, typing, unittest, uuid, zoneinfo
from collections import namedtuple
from dataclasses import dataclass, field

Point = namedtuple("Point", "x y")

@dataclass(order=True)
class Task:
    priority: int
    name: str = field(compare=False)

class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self) -> float: ...

class Color(enum.Enum):
    RED = 1

def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b

print("héllo ✓")
logging.warning("logged")
try:
    1 / 0
except ZeroDivisionError:
    traceback.print_exc()
with tempfile.TemporaryDirectory() as scratch:
    pathlib.Path(scratch, "f.txt").write_text("scratch")
with open("local.txt", "w") as local:
    local.write("mine")
`;
    const tests = `
def test_everything():
    assert Point(1, 2).x == 1
    assert heapq.nsmallest(1, [Task(2, "b"), Task(1, "a")])[0].name == "a"
    assert list(itertools.islice(fib(), 6)) == [0, 1, 1, 2, 3, 5]
    assert Color.RED.value == 1
    assert open("local.txt").read() == "mine"
    assert zoneinfo.ZoneInfo("UTC") is not None
    assert re.sub(r"\\d", "#", "a1") == "a#"
    assert json.loads(json.dumps({"a": [1]})) == {"a": [1]}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        assert list(pool.map(abs, [-1, -2])) == [1, 2]
    assert asyncio.run(asyncio.sleep(0, result=5)) == 5
    assert str(decimal.Decimal("1.10") + decimal.Decimal("2.20")) == "3.30"
    assert uuid.uuid4().version == 4 and 0 <= random.random() < 1
    try:
        Shape()
    except TypeError:
        pass
    else:
        raise AssertionError("abstract class instantiated")
`;
    const outcome = await runPython(artifact, tests);
    expect(outcome).toMatchObject({ status: "passed", tests: [{ name: "test_everything", passed: true }] });
    expect(outputOf(outcome)).toContain("héllo ✓\n");
    expect(outputOf(outcome)).toContain("WARNING:root:logged");
    expect(outputOf(outcome)).toContain("ZeroDivisionError: division by zero");
  });

  it("does not run the artifact's if __name__ == '__main__' block (001: exec in a fresh namespace)", async () => {
    const outcome = await runPython("def f():\n    return 1\n\nif __name__ == '__main__':\n    print('main ran')\n    input()\n", "def test_f():\n    assert f() == 1\n");
    expect(outcome).toMatchObject({ status: "passed" });
    expect(outputOf(outcome)).toBe("");
  });
});

describe("runPythonTests: missing python3", () => {
  it("is unavailable, with a plain message, when the executable does not exist", async () => {
    const message = expect.stringContaining("python3 is not installed or not on PATH; Python guards need it");
    expect(await runPythonTests({ language: "python", artifact: "", tests: "" }, { pythonExecutable: "/nonexistent/bin/python3" })).toMatchObject({ status: "unavailable", message });
    expect(await runPythonTests({ language: "python", artifact: "", tests: "" }, { pythonExecutable: "no-such-python-dualstate" })).toMatchObject({ status: "unavailable", message });
  });
});

describe("runPythonTests: speed", () => {
  it("runs a trivial passing test in well under a second (median of 10)", async () => {
    await runPython("x = 1", "assert x == 1"); // resolves the interpreter once
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect((await runPython("def add(a, b):\n    return a + b\n", "def test_add():\n    assert add(1, 2) == 3\n")).status).toBe("passed");
      times.push(performance.now() - started);
    }
    const median = times.sort((a, b) => a - b)[5] ?? Infinity;
    console.info(`python sandbox: median trivial run ${median.toFixed(1)} ms`);
    expect(median).toBeLessThan(500);
  });
});

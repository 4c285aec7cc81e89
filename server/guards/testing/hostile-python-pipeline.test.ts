/**
 * The same attacks as server/sandbox/boundary/hostile-python.test.ts, now through the real
 * pipeline, arriving the four ways untrusted Python reaches the sandbox: as the artifact, as test
 * code written in the document, as a TDD `test` dependency (generated tests), and as a code step.
 * Each attack is written so that it would PASS if it worked; each must get a failed or limit
 * verdict instead, never a pass, show nothing of the secret, and leave nothing on the host.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifact, type GuardResult } from "../../engine";
import { runCodeStep } from "../../workflows/compile/code-step-runner";
import { createTddGuard, createTestGuard } from "./test-guard";

const PROJECT = fileURLToPath(new URL("../../..", import.meta.url));
const SECRET = `secret-${randomBytes(12).toString("hex")}`;
const ENV_NAME = `DUALSTATE_PIPELINE_CANARY_${randomBytes(4).toString("hex").toUpperCase()}`;
const MARKER = `trace-${randomBytes(6).toString("hex")}`;
const LIMITS = { wall_clock_ms: 10_000, cpu_ms: 3_000, memory_mb: 64 };

const hostTemp = mkdtempSync(join(tmpdir(), "dualstate-pipeline-canary-"));
const hostCanary = join(hostTemp, "secret.txt");
const projectCanary = join(PROJECT, `.dualstate-pipeline-canary-${randomBytes(6).toString("hex")}`);
let server: Server;
let port = 0;
let connections = 0;

/** Each attack sets `stolen` to SECRET only if it got through; the test then passes only on success. */
function attacks(): Record<string, string> {
  return {
    "reads a canary in the host's /tmp": `stolen = open(${JSON.stringify(hostCanary)}).read()`,
    "reads a canary in the project folder": `stolen = open(${JSON.stringify(projectCanary)}).read()`,
    "reads the server's environment through /proc": `stolen = open("/proc/${process.pid}/environ", "rb").read().decode().split("${ENV_NAME}=")[1].split("\\0")[0]`,
    "reads its own environment": `import os\nstolen = os.environ["${ENV_NAME}"]`,
    "opens a TCP socket to the host": `import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=2).sendall(b"hello")\nstolen = ${JSON.stringify(SECRET)}`,
    "writes a file into the host's /tmp": `open("/tmp/${MARKER}", "w").write("x")\nstolen = ${JSON.stringify(SECRET)}`,
    "starts a shell": `import subprocess\nstolen = subprocess.run(["/bin/sh", "-c", "echo ${SECRET}"], capture_output=True, text=True).stdout.strip()`,
    "escapes through a renamed native module and raw system calls": [
      "import _imp, glob, shutil, sys, os, importlib.machinery",
      "source = glob.glob([p for p in sys.path if p.endswith('lib-dynload')][0] + '/_ctypes.*.so')[0]",
      "shutil.copy(source, 'innocent.so')",
      "spec = importlib.machinery.ModuleSpec('_ctypes', None, origin=os.path.abspath('innocent.so'))",
      "sys.modules['_ctypes'] = _imp.create_dynamic(spec)",
      "import ctypes",
      "libc = ctypes.CDLL(None)",
      "assert libc.syscall(272, 0x10000000) == 0  # unshare(CLONE_NEWUSER)",
      `stolen = ${JSON.stringify(SECRET)}`,
    ].join("\n"),
    "forks without end": `import os\nwhile True:\n    os.fork()\nstolen = ${JSON.stringify(SECRET)}`,
    "exhausts memory": `blocks = [bytearray(16 * 1024 * 1024) for _ in range(1000)]\nstolen = ${JSON.stringify(SECRET)}`,
    "exhausts CPU": `while True:\n    pass\nstolen = ${JSON.stringify(SECRET)}`,
    "floods the output": `while True:\n    print("x" * 100000)\nstolen = ${JSON.stringify(SECRET)}`,
    "fills the disk": `with open("fill", "wb") as out:\n    for _ in range(1000):\n        out.write(b"x" * 1024 * 1024)\nstolen = ${JSON.stringify(SECRET)}`,
  };
}

const TEST_THAT_PASSES_ON_SUCCESS = `\ndef test_attack_worked():\n    assert stolen == ${JSON.stringify(SECRET)}\n`;
const artifactOf = (content: string) => createArtifact({ id: `a-${randomBytes(4).toString("hex")}`, content, version: 1, parentId: null });

/** Failed (or a limit), and from a sandbox that really ran: not a configuration error. */
function expectNotPassed(result: GuardResult): void {
  expect(result.passed).toBe(false);
  expect(result.fatal).toBe(false);
  expect(result.feedback).not.toContain("Configuration error");
  expect(result.feedback).not.toContain(SECRET);
}

beforeAll(async () => {
  writeFileSync(hostCanary, SECRET);
  writeFileSync(projectCanary, SECRET);
  process.env[ENV_NAME] = SECRET;
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => {
  rmSync(hostTemp, { recursive: true, force: true });
  rmSync(projectCanary, { force: true });
  rmSync(`/tmp/${MARKER}`, { force: true });
  delete process.env[ENV_NAME];
  server.close();
});

describe.each(Object.entries(attacks()))("untrusted Python that %s", (_name, attack) => {
  it("as the artifact: failed, never passed", async () => {
    const guard = createTestGuard(TEST_THAT_PASSES_ON_SUCCESS, { language: "python", limits: LIMITS });
    expectNotPassed(await guard.validate(artifactOf(attack), {}));
  });

  it("as test code written in the document: failed, never passed", async () => {
    const guard = createTestGuard(`${attack}\n${TEST_THAT_PASSES_ON_SUCCESS}`, { language: "python", limits: LIMITS });
    expectNotPassed(await guard.validate(artifactOf("def add(a, b):\n    return a + b\n"), {}));
  });

  it("as a generated TDD test dependency: failed, never passed", async () => {
    const guard = createTddGuard({ language: "python", limits: LIMITS });
    expectNotPassed(await guard.validate(artifactOf("def add(a, b):\n    return a + b\n"), { test: artifactOf(`${attack}\n${TEST_THAT_PASSES_ON_SUCCESS}`) }));
  });

  it("as a code step: an error, and the secret never reaches the context", async () => {
    const outcome = await runCodeStep(`${attack}\ncontext["loot"] = stolen\n`, "python", { loot: "" });
    expect("error" in outcome && outcome.error).toBeTruthy();
    expect(JSON.stringify(outcome)).not.toContain("Configuration error");
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
  });
});

describe("control: the same harness passes when `stolen` really is the secret, so the verdicts above are not vacuous", () => {
  const honest = `stolen = ${JSON.stringify(SECRET)}`;
  it("through all four routes", async () => {
    const testGuard = createTestGuard(TEST_THAT_PASSES_ON_SUCCESS, { language: "python", limits: LIMITS });
    expect((await testGuard.validate(artifactOf(honest), {})).passed).toBe(true);
    const inTests = createTestGuard(`${honest}\n${TEST_THAT_PASSES_ON_SUCCESS}`, { language: "python", limits: LIMITS });
    expect((await inTests.validate(artifactOf("x = 1\n"), {})).passed).toBe(true);
    const tdd = createTddGuard({ language: "python", limits: LIMITS });
    expect((await tdd.validate(artifactOf("x = 1\n"), { test: artifactOf(`${honest}\n${TEST_THAT_PASSES_ON_SUCCESS}`) })).passed).toBe(true);
    expect(await runCodeStep(`${honest}\ncontext["loot"] = stolen\n`, "python", { loot: "" })).toEqual({ updates: { loot: SECRET } });
  });
});

describe("after every attack", () => {
  it("left no trace on the host and no connection to its server", () => {
    expect(existsSync(`/tmp/${MARKER}`)).toBe(false);
    expect(readdirSync(PROJECT).filter((name) => name.includes(MARKER) || name === "innocent.so" || name === "fill")).toEqual([]);
    expect(connections).toBe(0);
  });
});

describe("benign Python still passes through the same pipeline", () => {
  const artifact = "def add(a, b):\n    return a + b\n";
  const tests = [
    "assert add(1, 2) == 3",
    "def test_add():",
    "    assert add(2, 3) == 5",
    "",
    "import unittest",
    "class AddTests(unittest.TestCase):",
    "    def test_zero(self):",
    "        self.assertEqual(add(0, 0), 0)",
    "",
  ].join("\n");

  it("as artifact and test code: passed, each test reported by name", async () => {
    const guard = createTestGuard(tests, { language: "python", limits: LIMITS });
    const result = await guard.validate(artifactOf(artifact), {});
    expect(result).toMatchObject({ passed: true, feedback: "2 tests passed: test_add, AddTests.test_zero" });
  });

  it("as a TDD dependency, a failing one names the test", async () => {
    const guard = createTddGuard({ language: "python", limits: LIMITS });
    const result = await guard.validate(artifactOf("def add(a, b):\n    return a - b\n"), { test: artifactOf(tests) });
    expect(result.passed).toBe(false);
    expect(result.feedback).toMatch(/test_add|AddTests\.test_zero|assert add\(1, 2\) == 3/);
  });

  it("as a code step: the context changes", async () => {
    expect(await runCodeStep('context["count"] = context["count"] + 1\n', "python", { count: 1 })).toEqual({ updates: { count: 2 } });
  });
});

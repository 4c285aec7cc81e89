/**
 * The runner's own checks (audit hook, nonce, snapshots) through runPythonTests: defence in depth
 * inside the bubblewrap boundary, and what gives ordinary mistakes a precise verdict. The boundary
 * itself is attacked without any of this in ../boundary/hostile-python.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everything, outputOf, runPython } from "./test-support";

const PASS = "def test_ok():\n    assert True\n";
const FAILING = "def test_fails():\n    assert 1 == 2\n";
// Walks every frame up from the code's own and every module, looking for a 32-digit hex string
// (finding only its own, which shows that the search works).
const NONCE_HUNT = `
import sys, re
control = "0123456789abcdef" * 2
hexes = set()
seen = set()
def scan(value, depth=0):
    if depth > 6 or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        hexes.update(re.findall(r"\\b[0-9a-f]{32}\\b", value))
    elif isinstance(value, bytes):
        hexes.update(m.decode() for m in re.findall(rb"\\b[0-9a-f]{32}\\b", value))
    elif isinstance(value, dict):
        for k, v in list(value.items()):
            scan(k, depth + 1); scan(v, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in list(value):
            scan(v, depth + 1)
    elif hasattr(value, "__dict__") and not isinstance(value, type(sys)):
        scan(vars(value), depth + 1)
frame = sys._getframe()
while frame is not None:
    scan(frame.f_locals); scan(frame.f_globals)
    frame = frame.f_back
for module in list(sys.modules.values()):
    scan(getattr(module, "__dict__", {}))
print("FOUND", sorted(hexes))
`;
const INCOMPLETE = "the test code did not run to its end (the artifact exited early or killed the interpreter)";

describe("python sandbox isolation: files", () => {
  const secret = `dualstate-file-secret-${Math.random().toString(36).slice(2)}`;
  let directory = "";
  let file = "";
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), "dualstate-isolation-"));
    file = join(directory, "secret.txt");
    writeFileSync(file, secret);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("cannot read a file of the host's, however it opens it", async () => {
    const attempts = [
      `print(open(${JSON.stringify(file)}).read())`,
      `import pathlib\nprint(pathlib.Path(${JSON.stringify(file)}).read_text())`,
      `import os\nprint(os.read(os.open(${JSON.stringify(file)}, os.O_RDONLY), 1000))`,
      `import io\nprint(io.open(${JSON.stringify(file)}, "rb").read())`,
      `import os\nos.chdir(${JSON.stringify(directory)})\nprint(open("secret.txt").read())`,
      `import os\nprint(open(os.path.relpath(${JSON.stringify(file)})).read())`,
      `import shutil\nshutil.copy(${JSON.stringify(file)}, "copy.txt")\nprint(open("copy.txt").read())`,
    ];
    for (const artifact of attempts) {
      const outcome = await runPython(artifact, PASS);
      expect(outcome, artifact).toMatchObject({ status: "limit", limit: "file_system" });
      expect(everything(outcome), artifact).not.toContain(secret);
    }
  });

  it("cannot list or read the rest of the system, nor link to it", async () => {
    const attempts = [
      `import os\nprint(os.listdir(${JSON.stringify(directory)}))`,
      "print(open('/etc/passwd').read())",
      "print(open('/proc/self/environ').read())",
      `import os\nos.symlink(${JSON.stringify(file)}, "link.txt")\nprint(open("link.txt").read())`,
      `import os\nos.link(${JSON.stringify(file)}, "hard.txt")\nprint(open("hard.txt").read())`,
    ];
    for (const artifact of attempts) {
      const outcome = await runPython(artifact, PASS);
      expect(outcome, artifact).toMatchObject({ status: "limit", limit: "file_system" });
      expect(everything(outcome), artifact).not.toContain(secret);
      expect(everything(outcome), artifact).not.toContain("root:x:0:0");
    }
  });

  it("reads and writes its own directory freely", async () => {
    const outcome = await runPython("import os\nos.mkdir('sub')\nwith open('sub/data.txt', 'w') as f:\n    f.write('ok')\n", "def test_read():\n    assert open('sub/data.txt').read() == 'ok'\n    assert os.listdir('.') == ['sub']\n");
    expect(outcome).toMatchObject({ status: "passed" });
  });
});

describe("python sandbox isolation: environment", () => {
  it("sees none of the host's environment variables", async () => {
    const secret = `dualstate-env-secret-${Math.random().toString(36).slice(2)}`;
    process.env.DUALSTATE_SANDBOX_SECRET = secret;
    try {
      const outcome = await runPython(
        "import os\nprint(dict(os.environ))\nprint(os.getenv('DUALSTATE_SANDBOX_SECRET'), os.environ.get('HOME'), os.environ.get('PATH'))\n",
        "def test_env():\n    assert 'DUALSTATE_SANDBOX_SECRET' not in os.environ\n",
      );
      expect(outcome).toMatchObject({ status: "passed" });
      expect(everything(outcome)).not.toContain(secret);
      expect(outputOf(outcome)).toContain("None None None");
    } finally {
      delete process.env.DUALSTATE_SANDBOX_SECRET;
    }
  });
});

describe("python sandbox isolation: network", () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.end("HTTP/1.0 200 OK\r\n\r\nleaked");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("cannot connect to a port on the host", async () => {
    const attempts = [
      `import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=1).recv(100)`,
      `import urllib.request\nprint(urllib.request.urlopen("http://127.0.0.1:${port}/", timeout=1).read())`,
      `import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\ns.connect(("127.0.0.1", ${port}))`,
      `import http.client\nc = http.client.HTTPConnection("127.0.0.1", ${port}, timeout=1)\nc.request("GET", "/")\nprint(c.getresponse().read())`,
      `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=1)\nexcept OSError:\n    pass`,
    ];
    for (const artifact of attempts) {
      const outcome = await runPython(artifact, PASS);
      expect(outcome, artifact).toMatchObject({ status: "limit", limit: "network", message: expect.stringContaining("does not allow network access") });
      expect(everything(outcome), artifact).not.toContain("leaked");
    }
    // Give a connection that slipped through time to arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connections).toBe(0);
  });
});

describe("python sandbox: early exits and tampering never pass", () => {
  it("treats exiting before the tests end as incomplete", async () => {
    expect(await runPython("import sys\nsys.exit(0)\n", FAILING)).toMatchObject({ status: "incomplete", message: "the code called sys.exit(0) at artifact.py line 2, so the tests did not run to their end" });
    expect(await runPython("raise SystemExit\n", FAILING)).toMatchObject({ status: "incomplete", message: expect.stringContaining("sys.exit()") });
    expect(await runPython("import os\nos._exit(0)\n", FAILING)).toMatchObject({ status: "incomplete", message: expect.stringContaining(INCOMPLETE) });
    expect(await runPython("def solve():\n    raise SystemExit(0)\n", "def test_solve():\n    solve()\n")).toMatchObject({ status: "incomplete" });
    expect(await runPython("x = 1\n", "import unittest\nunittest.main()\n")).toMatchObject({ status: "incomplete" });
  });

  it("treats killing the interpreter as incomplete, and denies os.kill", async () => {
    expect(await runPython("import os\nos.kill(os.getpid(), 9)\n", FAILING)).toMatchObject({ status: "incomplete", message: expect.stringContaining("does not allow os.kill") });
    expect(await runPython("import signal\nsignal.raise_signal(signal.SIGKILL)\n", FAILING)).toMatchObject({ status: "incomplete", message: expect.stringContaining("killed by SIGKILL") });
    expect(await runPython("import os\nos.abort()\n", FAILING)).toMatchObject({ status: "incomplete", message: expect.stringContaining("SIGABRT") });
  });

  it("ignores a fake report printed to stdout or written to every descriptor", async () => {
    const fake = JSON.stringify({ nonce: "0".repeat(32), status: "passed", limit: null, message: null, tests: [] });
    expect(await runPython(`print(${JSON.stringify(fake)})\n`, FAILING)).toMatchObject({ status: "failed" });
    const everyDescriptor = `import os\nfor fd in range(3, 1024):\n    try:\n        os.write(fd, ${JSON.stringify(fake + "\n")}.encode())\n    except OSError:\n        pass\nos._exit(0)\n`;
    expect(await runPython(everyDescriptor, FAILING)).toMatchObject({ status: "incomplete" });
  });

  it("does not let the artifact replace builtins or the unittest machinery", async () => {
    const attempts = [
      "import builtins\nbuiltins.AssertionError = Exception\n",
      "__builtins__.__import__ = lambda *args, **kwargs: None\n",
      "import builtins\nbuiltins.len = lambda x: 0\n",
      "import unittest\nunittest.TestCase.assertEqual = lambda *args: None\n",
      "import sys, types\nfake = types.ModuleType('unittest')\nfake.TestCase = object\nsys.modules['unittest'] = fake\n",
    ];
    const tests = "import unittest\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(len([1]), 2)\n";
    for (const artifact of attempts) {
      expect(await runPython(artifact, tests), artifact).toMatchObject({ status: "incomplete", message: expect.stringContaining("cannot be trusted") });
    }
  });

  it("denies the introspection that could reach the runner's secrets", async () => {
    const attempts = ["import gc\ngc.get_objects()", "import gc\ngc.get_referrers(1)", "import sys\nsys._current_frames()", "import ctypes", "import sys\nsys.addaudithook(lambda *a: None)"];
    for (const artifact of attempts) {
      expect(await runPython(artifact, PASS), artifact).toMatchObject({ status: "incomplete", message: expect.stringContaining("does not allow") });
    }
    // Even when the code catches the error, the attempt decides the verdict.
    expect(await runPython("import gc\ntry:\n    gc.get_objects()\nexcept Exception:\n    pass\n", PASS)).toMatchObject({ status: "incomplete" });
  });

  it("cannot find the run's nonce from its frames, their locals or any module", async () => {
    const outcome = await runPython(NONCE_HUNT, PASS);
    expect(outcome).toMatchObject({ status: "passed" });
    expect(outputOf(outcome)).toBe("FOUND ['0123456789abcdef0123456789abcdef']\n");
  });

  it("keeps frames and tracebacks usable for ordinary code", async () => {
    const artifact = "import inspect, logging, traceback\n\ndef where():\n    return inspect.stack()[0].function\n\ntry:\n    raise ValueError('x')\nexcept ValueError:\n    logging.exception('handled')\n";
    expect(await runPython(artifact, "def test_where():\n    assert where() == 'where'\n")).toMatchObject({ status: "passed" });
  });

  it("is not confused by a simulated Ctrl-C", async () => {
    expect(await runPython("import _thread\n_thread.interrupt_main()\n", PASS)).toMatchObject({ status: "passed" });
  });
});

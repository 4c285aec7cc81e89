/**
 * The boundary on its own, with the in-interpreter checks gone: plain `python3 -c` code (no
 * runner, no audit hook, ctypes allowed) started through launchSandbox with the Python profile,
 * attacking the host the way code with native execution could. Real bwrap, run as root here and
 * in CI (the uid checks need root; elsewhere they are skipped).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonProcessLimits, pythonSandboxProfile, WORK_DIRECTORY_BYTES } from "../python/sandbox-profile";
import { sandboxProcessesWithCpuLimit } from "../python/test-support";
import { usableInterpreter } from "../python/usable-interpreter";
import { launchSandbox } from "./launch-sandbox";
import { FIRST_SANDBOX_UID, isRootServer, SANDBOX_UIDS } from "./sandbox-identity";

const PROJECT = fileURLToPath(new URL("../../..", import.meta.url));
const MB = 1024 * 1024;

interface PlainRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly killedByHost: boolean;
  readonly durationMs: number;
}

/** Runs `python3 -c code` inside the boundary, killing it from here after `wallClockMs`. */
async function runPlain(code: string, options: { cpuMs?: number; memoryMb?: number; wallClockMs?: number; whileRunning?: () => void } = {}): Promise<PlainRun> {
  const found = await usableInterpreter(undefined);
  if (!found.ok) throw new Error(found.message);
  const started = performance.now();
  const launched = await launchSandbox({
    profile: pythonSandboxProfile(found.interpreter, {}, ["-c", code]),
    limits: pythonProcessLimits({ cpuMs: options.cpuMs ?? 4_000, memoryMb: options.memoryMb ?? 64 }),
    extraPipes: 0,
  });
  if (!launched.ok) throw new Error(launched.message);
  const { child } = launched;
  let stdout = "";
  let stderr = "";
  let killedByHost = false;
  child.stdout?.on("data", (chunk: Buffer) => {
    if (stdout.length < MB) stdout += chunk.toString("utf8");
    if (stdout.includes("READY\n") && options.whileRunning) {
      const check = options.whileRunning;
      options.whileRunning = undefined;
      check();
    }
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < MB) stderr += chunk.toString("utf8");
  });
  const timer = setTimeout(() => {
    killedByHost = true;
    launched.kill();
  }, options.wallClockMs ?? 20_000);
  const exitCode = await new Promise<number | null>((resolve) => child.once("close", (status) => resolve(status)));
  clearTimeout(timer);
  return { exitCode, stdout, stderr, killedByHost, durationMs: performance.now() - started };
}

/** The JSON object the code printed last. */
function report(run: PlainRun): Record<string, unknown> {
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`no JSON report; stdout: ${run.stdout.slice(0, 500)} stderr: ${run.stderr.slice(0, 1500)}`);
  }
}

const ERRNO_OF = `
def errno_of(action):
    try:
        action()
        return "allowed"
    except OSError as error:
        return error.errno
    except Exception as error:
        return type(error).__name__
`;

describe("the boundary holds against plain Python (no runner, no audit hook)", () => {
  const canaryText = `canary-${randomBytes(12).toString("hex")}`;
  const hostTemp = mkdtempSync(join(tmpdir(), "dualstate-canary-"));
  const hostCanary = join(hostTemp, "secret.txt");
  const projectCanary = join(PROJECT, `.dualstate-canary-${randomBytes(6).toString("hex")}`);
  const envName = `DUALSTATE_BOUNDARY_CANARY_${randomBytes(4).toString("hex").toUpperCase()}`;
  let server: Server;
  let connections = 0;
  let port = 0;
  const abstractSocket = `\0dualstate-canary-${randomBytes(6).toString("hex")}`;
  let unixServer: Server;

  beforeAll(async () => {
    writeFileSync(hostCanary, canaryText);
    writeFileSync(projectCanary, canaryText);
    process.env[envName] = canaryText;
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
    unixServer = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => unixServer.listen(abstractSocket, resolve));
  });

  afterAll(() => {
    rmSync(hostTemp, { recursive: true, force: true });
    rmSync(projectCanary, { force: true });
    delete process.env[envName];
    server.close();
    unixServer.close();
  });

  it("runs as an unprivileged uid, inside and in the host's eyes, and leaves no process behind", async () => {
    let hostUids: number[][] = [];
    const run = await runPlain(`import os, json, time\nprint("READY", flush=True)\ntime.sleep(2)\nprint(json.dumps({"uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(), "groups": os.getgroups()}))\n`, {
      cpuMs: 9_001,
      whileRunning: () => {
        hostUids = sandboxProcessesWithCpuLimit(10).map((pid) => uidsOf(pid));
      },
    });
    expect(report(run)).toEqual({ uid: 65534, euid: 65534, gid: 65534, groups: [] });
    if (isRootServer()) {
      // prlimit/bash/bwrap's monitor, bwrap's pid 1 and python: all of them as the sandbox's own uid.
      expect(hostUids.length).toBeGreaterThanOrEqual(2);
      for (const uids of hostUids) for (const uid of uids) expect(uid >= FIRST_SANDBOX_UID && uid < FIRST_SANDBOX_UID + SANDBOX_UIDS).toBe(true);
    }
    expect(await leftovers(10)).toEqual([]);
  });

  it("cannot read host files: a canary in the host's /tmp, one in the project folder, /etc, /root, the database", async () => {
    const paths = [hostCanary, projectCanary, join(PROJECT, "package.json"), join(PROJECT, "prisma"), "/etc/passwd", "/etc/shadow", "/root/.bashrc", "/root", "/home", "/tmp", "/work"];
    const run = await runPlain(`${ERRNO_OF}
import json, os
paths = ${JSON.stringify(paths)}
result = {path: errno_of(lambda path=path: open(path).read() if not os.path.isdir(path) else os.listdir(path)) for path in paths}
result["/"] = sorted(os.listdir("/"))
result["/etc"] = os.listdir("/etc")
print(json.dumps(result))
`);
    const result = report(run);
    for (const path of paths) expect([2, 13], path).toContain(result[path]); // ENOENT or EACCES
    expect(result["/"]).toEqual(expect.arrayContaining(["dev", "sandbox", "usr"]));
    for (const entry of result["/"] as string[]) expect(["dev", "sandbox", "usr", "lib", "lib64", "etc", "bin", "sbin"]).toContain(entry);
    expect(result["/etc"]).toEqual(["ld.so.cache"]);
    expect(run.stdout + run.stderr).not.toContain(canaryText);
  });

  it("cannot see the host's /proc: no host processes, no server environment", async () => {
    const run = await runPlain(`${ERRNO_OF}
import json, os
print(json.dumps({
    "proc": errno_of(lambda: os.listdir("/proc")),
    "server_environ": errno_of(lambda: open("/proc/${process.pid}/environ", "rb").read()),
    "self_environ": errno_of(lambda: open("/proc/self/environ", "rb").read()),
    "init": errno_of(lambda: open("/proc/1/cmdline", "rb").read()),
    "sys": errno_of(lambda: os.listdir("/sys")),
    "kill_server": errno_of(lambda: os.kill(${process.pid}, 0)),
    "pid": os.getpid(),
}))
`);
    const result = report(run);
    expect(result).toMatchObject({ proc: 2, server_environ: 2, self_environ: 2, init: 2, sys: 2, kill_server: 3 }); // ENOENT, ESRCH
    expect(result.pid).toBeLessThan(10); // its own pid namespace
    expect(run.stdout + run.stderr).not.toContain(canaryText);
  });

  it("sees none of the server's environment variables", async () => {
    const run = await runPlain(`import json, os\nprint(json.dumps(dict(os.environ)))\n`);
    const environment = report(run);
    expect(Object.keys(environment).sort()).toEqual(expect.arrayContaining(["MALLOC_ARENA_MAX", "TMPDIR"]));
    for (const name of Object.keys(environment)) expect(["MALLOC_ARENA_MAX", "TMPDIR", "LC_CTYPE", "PWD"]).toContain(name); // bwrap sets PWD
    expect(run.stdout).not.toContain(canaryText);
  });

  it("cannot open a socket to a server on 127.0.0.1 or an abstract Unix socket of the host, nor any other network socket", async () => {
    const run = await runPlain(`${ERRNO_OF}
import json, socket
print(json.dumps({
    "tcp": errno_of(lambda: socket.create_connection(("127.0.0.1", ${port}), timeout=2)),
    "tcp6": errno_of(lambda: socket.socket(socket.AF_INET6, socket.SOCK_STREAM)),
    "udp": errno_of(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM)),
    "netlink": errno_of(lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)),
    "packet": errno_of(lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)),
    "abstract_unix": errno_of(lambda: socket.socket(socket.AF_UNIX).connect(${JSON.stringify(abstractSocket)})),
    "unix_pair": errno_of(lambda: socket.socketpair()),
}))
`);
    const result = report(run);
    expect(result).toMatchObject({ tcp: 97, tcp6: 97, udp: 97, netlink: 97, packet: 97, unix_pair: "allowed" }); // EAFNOSUPPORT
    expect([111, 2]).toContain(result.abstract_unix); // ECONNREFUSED: its own network namespace
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(connections).toBe(0);
  });

  it("cannot start a host program, and a fork bomb stops at the process limit", async () => {
    const run = await runPlain(`${ERRNO_OF}
import json, os, time, subprocess
sh = errno_of(lambda: os.execv("/bin/sh", ["sh", "-c", "id"]))
spawned = errno_of(lambda: subprocess.run(["id"]))
forks = 0
error = None
try:
    while forks < 10000:
        if os.fork() == 0:
            time.sleep(3)
            os._exit(0)
        forks += 1
except OSError as failure:
    error = failure.errno
print(json.dumps({
    "forks": forks, "error": error,
    "sh": sh,
    "subprocess": spawned,
    "kill_init": errno_of(lambda: os.kill(1, 9)),
}))
`, { cpuMs: 8_001 });
    const result = report(run);
    expect(result.error).toBe(11); // EAGAIN from RLIMIT_NPROC
    expect(result.forks).toBeLessThan(32);
    expect(result.sh).toBe(2);
    expect(result.subprocess).toBe(2);
    expect(await leftovers(9)).toEqual([]);
  });

  it("cannot write outside its private directory, which is a size-limited tmpfs that leaves nothing on the host", async () => {
    const marker = `trace-${randomBytes(6).toString("hex")}`;
    const run = await runPlain(`${ERRNO_OF}
import json, os
def fill():
    written = 0
    try:
        for index in range(1000):
            with open("filler-%d" % index, "wb") as out:
                out.write(b"x" * (1024 * 1024))
            written += 1024 * 1024
    except OSError as error:
        return [error.errno, written]
    return ["no error", written]
def too_big():
    with open("big", "wb") as out:
        out.write(b"x" * (5 * 1024 * 1024))
print(json.dumps({
    "root": errno_of(lambda: open("/${marker}", "w")),
    "dev": errno_of(lambda: open("/dev/${marker}", "w")),
    "shm": errno_of(lambda: open("/dev/shm/${marker}", "w")),
    "usr": errno_of(lambda: open("/usr/${marker}", "w")),
    "mkdir_tmp": errno_of(lambda: os.mkdir("/tmp")),
    "here": errno_of(lambda: open("${marker}", "w").write("ok")),
    "big": errno_of(too_big),
    "fill": fill(),
}))
`);
    const result = report(run);
    expect(result).toMatchObject({ root: 30, dev: 30, shm: 30, usr: 30, mkdir_tmp: 30, here: "allowed", big: 27 }); // EROFS, EFBIG
    const [errno, written] = result.fill as [number, number];
    expect(errno).toBe(28); // ENOSPC
    expect(written).toBeLessThanOrEqual(WORK_DIRECTORY_BYTES);
    expect(readdirSync(tmpdir()).filter((name) => name.includes(marker))).toEqual([]);
    expect(readdirSync(PROJECT).filter((name) => name.includes(marker))).toEqual([]);
  });

  it("holds with native code: a renamed extension module and ctypes get only EPERM/ENOSYS for the dangerous system calls", async () => {
    const run = await runPlain(`
import json, os, shutil, sys, glob, importlib.util
source = glob.glob([p for p in sys.path if p.endswith("lib-dynload")][0] + "/_ctypes.*.so")[0]
shutil.copy(source, "innocent.so")
spec = importlib.util.spec_from_file_location("_ctypes", os.path.abspath("innocent.so"))
renamed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(renamed)
sys.modules["_ctypes"] = renamed
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    return "allowed" if result >= 0 else ctypes.get_errno()
infinity = (ctypes.c_ulong * 2)(2**64 - 1, 2**64 - 1)
print(json.dumps({
    "loaded_renamed": renamed.__file__.endswith("innocent.so"),
    "socket_inet": call(41, 2, 1, 0),
    "unshare_user": call(272, 0x10000000),
    "unshare_mount": call(272, 0x00020000),
    "clone_newpid": call(56, 0x20000000 | 17, 0, 0, 0, 0),
    "clone3": call(435, 0, 0),
    "setns": call(308, 0, 0),
    "mount": call(165, 0, 0, 0, 0, 0),
    "ptrace_traceme": call(101, 0, 0, 0, 0),
    "keyctl": call(250, 0, 0, 0, 0, 0),
    "add_key": call(248, 0, 0, 0, 0, 0),
    "bpf": call(321, 0, 0, 0),
    "perf_event_open": call(298, 0, 0, 0, 0, 0),
    "userfaultfd": call(323, 0),
    "io_uring_setup": call(425, 1, 0),
    "personality": call(135, 0x0040000),
    "init_module": call(175, 0, 0, 0),
    "kexec_load": call(246, 0, 0, 0, 0),
    "process_vm_readv": call(310, 1, 0, 0, 0, 0, 0),
    "raise_address_space": call(302, 0, 9, ctypes.addressof(infinity), 0),
    "raise_processes": call(302, 0, 6, ctypes.addressof(infinity), 0),
}))
`);
    const result = report(run);
    expect(result.loaded_renamed).toBe(true);
    expect(result).toMatchObject({
      socket_inet: 97,
      unshare_user: 1,
      unshare_mount: 1,
      clone_newpid: 1,
      clone3: 38,
      setns: 1,
      mount: 1,
      ptrace_traceme: 1,
      keyctl: 1,
      add_key: 1,
      bpf: 1,
      perf_event_open: 1,
      userfaultfd: 1,
      io_uring_setup: 1,
      personality: 1,
      init_module: 1,
      kexec_load: 1,
      process_vm_readv: 1,
      raise_address_space: 1, // EPERM: no CAP_SYS_RESOURCE to raise a hard limit
      raise_processes: 1,
    });
  });

  it("cannot raise its resource limits, which are the host's from its first instruction", async () => {
    const run = await runPlain(`${ERRNO_OF}
import json, resource
names = ["RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_FSIZE", "RLIMIT_CORE"]
limits = {name: resource.getrlimit(getattr(resource, name)) for name in names}
raised = {name: errno_of(lambda name=name: resource.setrlimit(getattr(resource, name), (resource.RLIM_INFINITY, resource.RLIM_INFINITY))) for name in names}
print(json.dumps({"limits": limits, "raised": raised}))
`, { cpuMs: 3_000, memoryMb: 100 });
    const result = report(run) as { limits: Record<string, [number, number]>; raised: Record<string, unknown> };
    expect(result.limits).toMatchObject({ RLIMIT_AS: [(100 + 56) * MB, (100 + 56) * MB], RLIMIT_CPU: [3, 4], RLIMIT_NPROC: [32, 32], RLIMIT_FSIZE: [4 * MB, 4 * MB], RLIMIT_CORE: [0, 0] });
    for (const name of Object.keys(result.raised)) expect(result.raised[name], name).toBe("ValueError"); // "not allowed to raise maximum limit"
  });

  it("cannot exhaust memory: allocations past the address-space limit fail", async () => {
    const run = await runPlain(`${ERRNO_OF}
import json, mmap
def grow():
    blocks = []
    for _ in range(10000):
        blocks.append(bytearray(8 * 1024 * 1024))
print(json.dumps({"big": errno_of(lambda: bytearray(2 * 1024 * 1024 * 1024)), "grow": errno_of(grow), "mmap": errno_of(lambda: mmap.mmap(-1, 1024 * 1024 * 1024))}))
`);
    expect(report(run)).toEqual({ big: "MemoryError", grow: "MemoryError", mmap: 12 }); // ENOMEM
  });

  it("cannot exhaust CPU: an endless loop is killed by the kernel even if it ignores SIGXCPU", async () => {
    const plain = await runPlain("while True:\n    pass\n", { cpuMs: 1_000, wallClockMs: 30_000 });
    expect(plain.killedByHost).toBe(false);
    expect(plain.exitCode).toBe(128 + 24); // SIGXCPU, reported by bwrap as 128 + signal
    const ignoresSigxcpu = await runPlain("import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True:\n    pass\n", { cpuMs: 1_000, wallClockMs: 30_000 });
    expect(ignoresSigxcpu.killedByHost).toBe(false);
    expect(ignoresSigxcpu.exitCode).toBe(128 + 9); // SIGKILL at the hard limit, a second later
  });

  it("is killed at its wall clock by the launcher's watchdog even while the server's event loop is stuck", async () => {
    const found = await usableInterpreter(undefined);
    if (!found.ok) throw new Error(found.message);
    const launched = await launchSandbox({
      profile: pythonSandboxProfile(found.interpreter, {}, ["-c", "import time\nprint('READY', flush=True)\ntime.sleep(100)\n"]),
      limits: pythonProcessLimits({ cpuMs: 4_000, memoryMb: 64 }),
      extraPipes: 0,
    });
    if (!launched.ok) throw new Error(launched.message);
    const closed = new Promise((resolve) => launched.child.once("close", resolve));
    await new Promise<void>((resolve) => launched.child.stdout?.once("data", () => resolve()));
    launched.startWallClock(1_000);
    const pid = launched.child.pid as number;
    // Block the event loop well past the wall clock: no timer of this process can fire.
    const until = Date.now() + 4_000;
    while (Date.now() < until) {
      // busy
    }
    // Still inside the same turn of the event loop: only the watchdog can have killed it (it is a
    // zombie now, or gone).
    let state = "gone";
    try {
      state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "gone";
    } catch {
      // gone
    }
    expect(["Z", "gone"]).toContain(state);
    await closed;
    expect(launched.child.signalCode).toBe("SIGKILL");
  });

  it("inherits no descriptor but its stdio, and both output streams reach the host", async () => {
    const run = await runPlain(`import json, os, sys\nfds = []\nfor fd in range(1024):\n    try:\n        os.fstat(fd)\n        fds.append(fd)\n    except OSError:\n        pass\nprint("to stderr", file=sys.stderr)\nprint(json.dumps({"fds": fds}))\n`);
    expect(report(run)).toEqual({ fds: [0, 1, 2] });
    expect(run.stderr).toBe("to stderr\n");
  });
});

/** The processes of a finished run (by its CPU limit), once the kernel has torn its namespace down. */
async function leftovers(cpuSeconds: number): Promise<number[]> {
  for (let waited = 0; waited < 3_000 && sandboxProcessesWithCpuLimit(cpuSeconds).length > 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  return sandboxProcessesWithCpuLimit(cpuSeconds);
}

function uidsOf(pid: number): number[] {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return (/^Uid:\s+(.*)$/m.exec(status)?.[1] ?? "").split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

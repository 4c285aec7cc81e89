import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { bwrapArguments, type SandboxProfile } from "./bwrap-arguments";
import { locateBoundaryTools } from "./boundary-tools";
import { countTasksOf } from "./count-tasks";
import { prlimitArguments, type ProcessLimits } from "./resource-limits";
import { acquireSandboxIdentity, type SandboxIdentity } from "./sandbox-identity";
import { seccompFilter } from "./seccomp-filter";

/**
 * Runs between prlimit and bwrap (bash, outside the sandbox's namespaces). Two jobs:
 * 1. The wall-clock watchdog, independent of the server's event loop: a background subshell
 *    waits for the run's wall clock (seconds, written by the host when the run starts) on
 *    descriptor $1, sleeps that long and kills the whole process group, bwrap included. It
 *    holds no other descriptor, so it never delays the end of the run's output.
 * 2. Node gives a child its stdio, but any descriptor the server itself inherited without
 *    close-on-exec (a supervisor's pipe, a test runner's channel) would pass on through bwrap into
 *    the sandbox: every descriptor from $1 up is closed before exec.
 */
const LAUNCHER = [
  'watchdog="$1"; shift',
  "(",
  '  for fd in /proc/self/fd/*; do fd="${fd##*/}"; if [ "$fd" -ge 3 ] && [ "$fd" != "$watchdog" ]; then eval "exec $fd>&-"; fi; done 2>/dev/null',
  '  read -r seconds <&"$watchdog" || exit 0',
  '  sleep "$seconds"',
  "  kill -KILL 0",
  ") </dev/null >/dev/null 2>&1 &",
  // No redirection on this loop: bash would keep a copy of stderr above 9 for it, which the loop closes.
  'for fd in /proc/self/fd/*; do fd="${fd##*/}"; if [ "$fd" -ge "$watchdog" ]; then eval "exec $fd>&-"; fi; done',
  'exec "$@"',
].join("\n");

/** stdin, stdout, stderr and the caller's extra pipes (from fd 3) come first; then the filter and the data files. */
export interface LaunchRequest {
  readonly profile: SandboxProfile;
  readonly limits: ProcessLimits;
  /** Extra pipes the command gets from fd 3 on (e.g. a report channel). */
  readonly extraPipes: number;
}

export type Launched =
  | {
      readonly ok: true;
      readonly child: ChildProcess;
      readonly identity: SandboxIdentity;
      /** Kills the sandbox now. */
      kill(): void;
      /** Arms the watchdog: the sandbox is killed after `ms` even if the server's event loop is stuck. */
      startWallClock(ms: number): void;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Starts a command inside the boundary: `prlimit <limits> bwrap <profile> <command>`, as the
 * sandbox's own uid when the server is root. Its own process group (so the host can kill it and
 * the outer bwrap together); bwrap's --die-with-parent takes the sandbox's pid namespace down
 * with it, and everything in a pid namespace dies with its pid 1.
 */
export async function launchSandbox(request: LaunchRequest): Promise<Launched> {
  const tools = await locateBoundaryTools();
  if (!tools.ok) return tools;
  const filter = seccompFilter();
  if (!filter.ok) return filter;
  const identity = acquireSandboxIdentity();
  if (!identity) return { ok: false, message: "too many sandboxes are running at once (1024)" };

  const seccompFd = 3 + request.extraPipes;
  const firstDataFd = seccompFd + 1;
  const limits =
    identity.hostId === undefined
      ? // The server's own uid: RLIMIT_NPROC counts everything it runs already.
        { ...request.limits, tasks: request.limits.tasks + (await countTasksOf(process.getuid?.() ?? -1)) }
      : request.limits;
  const watchdogFd = firstDataFd + request.profile.dataFiles.length;
  const pipes = watchdogFd + 1;
  const args = [...prlimitArguments(limits), "--", tools.bash, "-c", LAUNCHER, "sandbox-launcher", String(watchdogFd), tools.bwrap, ...bwrapArguments(request.profile, seccompFd, firstDataFd)];
  let child: ChildProcess;
  try {
    child = spawn(tools.prlimit, args, {
      env: {} as NodeJS.ProcessEnv,
      stdio: Array.from({ length: pipes }, () => "pipe"),
      detached: true,
      ...(identity.hostId === undefined ? {} : { uid: identity.hostId, gid: identity.hostId }),
    });
  } catch (error) {
    identity.release();
    return { ok: false, message: `the sandbox could not be started: ${error instanceof Error ? error.message : String(error)}` };
  }
  const kill = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // ESRCH: gone already
    }
  };
  // Once bwrap's monitor is gone, nothing of the sandbox may outlive it (the watchdog included).
  child.once("exit", kill);
  child.once("close", () => identity.release());
  child.once("error", () => identity.release());
  feed(child.stdio[seccompFd] as Writable | null, filter.bytes);
  request.profile.dataFiles.forEach(({ content }, index) => feed(child.stdio[firstDataFd + index] as Writable | null, content));
  const watchdog = child.stdio[watchdogFd] as Writable | null;
  watchdog?.on("error", () => {});
  const startWallClock = (ms: number) => watchdog?.end(`${(Math.max(0, ms) / 1000).toFixed(3)}\n`);
  return { ok: true, child, identity, kill, startWallClock };
}

function feed(stream: Writable | null, content: Buffer): void {
  if (!stream) return;
  stream.on("error", () => {}); // bwrap died before reading: the exit status says why
  stream.end(content);
}
